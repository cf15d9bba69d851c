import { describe, expect, it } from 'vitest';
import { authorizeReturnTo } from '../../src/interaction/interaction-location.js';

describe('authorizeReturnTo', () => {
  it('builds a same-origin path back, dropping a satisfied prompt value', () => {
    expect(
      authorizeReturnTo(
        { params: { client_id: 'a b', prompt: 'login consent' }, device: null },
        { dropPrompt: 'login', set: { auth_after: '5' } },
      ),
    ).toBe('/oauth2/authorize?client_id=a+b&prompt=consent&auth_after=5');
    expect(authorizeReturnTo({ params: { prompt: 'consent' }, device: null }, { dropPrompt: 'consent' })).toBe(
      '/oauth2/authorize?',
    );
  });

  it("leads a device's request back to the device verification (RFC 8628 §3.3)", () => {
    const device = { userCode: 'BCDFGHJK', confirmedBy: null };
    expect(authorizeReturnTo({ params: { user_code: 'BCDFGHJK' }, device }, { set: { consent_denied: 'true' } })).toBe(
      '/oauth2/device_verification?user_code=BCDFGHJK&consent_denied=true',
    );
  });
});
