import { describe, expect, it } from 'vitest';
import { consent } from '../../../src/interaction/steps/consent.js';
import type { PendingAuthorization } from '../../../src/interaction/sign-in-state.js';
import { newIdentity, pending, session, signInDeps, summary } from '../sign-in-fixtures.js';

const toConsent = '/consent ← /oauth2/authorize?client_id=web';
const skipping = { clientId: 'web', name: 'Web', skipConsent: true, access: null };
/** RFC 8628 §5.4: a device's request, allowed by nobody yet, by alice, or by someone else. */
const device = (confirmedBy: string | null) =>
  pending({ params: { user_code: 'BCDFGHJK' }, device: { userCode: 'BCDFGHJK', confirmedBy } });
const toDeviceConsent = '/consent ← /oauth2/device_verification?user_code=BCDFGHJK';

describe('consent', () => {
  it.each<[string, PendingAuthorization, string[], string]>([
    ['nothing granted', pending(), [], toConsent],
    ['nothing granted, prompt=none', pending({ prompt: ['none'] }), [], 'refused: consent_required'],
    ['every scope granted', pending(), ['openid', 'email', 'profile'], 'continue'],
    ['one scope missing', pending(), ['openid'], toConsent],
    [
      'every scope granted, prompt=consent (dropped on the way back)',
      pending({ prompt: ['consent'], params: { client_id: 'web', prompt: 'consent' } }),
      ['openid', 'email'],
      toConsent,
    ],
    [
      'a claim asked beyond the scopes, its scope not granted',
      pending({ claimScopes: ['profile'] }),
      ['openid', 'email'],
      toConsent,
    ],
    [
      'a claim asked beyond the scopes, its scope granted',
      pending({ claimScopes: ['profile'] }),
      ['openid', 'email', 'profile'],
      'continue',
    ],
    ['a skip_consent client', pending({ client: skipping }), [], 'continue'],
    ['a skip_consent client, prompt=consent', pending({ client: skipping, prompt: ['consent'] }), [], toConsent],
    ['Deny pressed', pending({ consentDenied: true }), ['openid', 'email'], 'refused: access_denied'],
    [
      'Deny pressed, a skip_consent client',
      pending({ consentDenied: true, client: skipping }),
      [],
      'refused: access_denied',
    ],
    ['a device request, every scope granted before', device(null), ['openid', 'email'], toDeviceConsent],
    [
      'a device request of a skip_consent client',
      { ...device(null), client: skipping },
      ['openid', 'email'],
      toDeviceConsent,
    ],
    ['a device request allowed by another user', device('bob'), ['openid', 'email'], toDeviceConsent],
    ['a device request allowed by this user', device('alice'), [], 'continue'],
    ['a device request denied', { ...device('alice'), consentDenied: true }, [], 'refused: access_denied'],
  ])('%s → %s', async (_, request, granted, expected) => {
    const deps = signInDeps({
      grantedScopes: async (sub, clientId) => (sub === 'alice' && clientId === 'web' ? granted : []),
    });
    expect(summary(await consent({ identity: session(), request }, deps))).toBe(expected);
  });

  it('lets a sign-in through the API pass: there is nothing to consent to yet', async () => {
    expect((await consent({ identity: newIdentity(), request: null }, signInDeps())).kind).toBe('continue');
  });
});
