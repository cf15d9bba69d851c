import { describe, expect, it } from 'vitest';
import { authorizeReturnTo } from '../../src/interaction/interaction-location.js';

describe('authorizeReturnTo', () => {
  it('builds a same-origin path back, dropping a satisfied prompt value', () => {
    expect(
      authorizeReturnTo(
        { client_id: 'a b', prompt: 'login consent' },
        { dropPrompt: 'login', set: { auth_after: '5' } },
      ),
    ).toBe('/oauth2/authorize?client_id=a+b&prompt=consent&auth_after=5');
    expect(authorizeReturnTo({ prompt: 'consent' }, { dropPrompt: 'consent' })).toBe('/oauth2/authorize?');
  });
});
