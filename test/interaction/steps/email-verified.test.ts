import { describe, expect, it } from 'vitest';
import { emailVerified } from '../../../src/interaction/steps/email-verified.js';
import { newIdentity, pending, session, summary, userRecord } from '../sign-in-fixtures.js';

describe('emailVerified', () => {
  // docs/http-api.md, "Sessions and login": 403 EMAIL_NOT_VERIFIED when the user's email_verification_required is true and email_verified false.
  it.each([
    [false, false, 'continue'],
    [false, true, 'continue'],
    [true, true, 'continue'],
    [true, false, 'e-mail not verified'],
  ] as const)(
    'a new sign-in through the API, verification required %s, verified %s → %s',
    (required, verified, expected) => {
      const state = {
        identity: newIdentity({ emailVerificationRequired: required, emailVerified: verified }),
        request: null,
      };
      expect(summary(emailVerified(state))).toBe(expected);
    },
  );

  it('sends the session of a user who must verify back to /login, and lets a verified one pass', () => {
    const unverified = session({ user: userRecord({ emailVerificationRequired: true, emailVerified: false }) });
    expect(
      summary(
        emailVerified({
          identity: unverified,
          request: pending({ params: { client_id: 'web', login_hint: 'a@b.c' } }),
        }),
      ),
    ).toBe('/login ← /oauth2/authorize?client_id=web&login_hint=a%40b.c ?login_hint=a%40b.c');
    expect(summary(emailVerified({ identity: session(), request: pending() }))).toBe('continue');
  });

  it('refuses with login_required under prompt=none, which shows no page', () => {
    const unverified = session({ user: userRecord({ emailVerificationRequired: true, emailVerified: false }) });
    expect(summary(emailVerified({ identity: unverified, request: pending({ prompt: ['none'] }) }))).toBe(
      'refused: login_required',
    );
  });
});
