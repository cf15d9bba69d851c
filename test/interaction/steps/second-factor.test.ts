import { describe, expect, it } from 'vitest';
import type { UserFactorSummary } from '../../../src/accounts/login-second-factors.js';
import type { AuthConfig } from '../../../src/config/types.js';
import { secondFactor } from '../../../src/interaction/steps/second-factor.js';
import { newIdentity, pending, session, signInDeps, summary } from '../sign-in-fixtures.js';

type Policy = AuthConfig['secondFactor'];

const factorsOf = (found: UserFactorSummary) => ({
  summarize: async (subs: string[]) => new Map(subs.map((sub) => [sub, found])),
});
const none: UserFactorSummary = { totpRegistered: false, unusedRecoveryCodes: 0, passkeyCount: 0 };

describe('secondFactor', () => {
  // A registered factor is always asked; the policy alone only matters to enrolSecondFactor.
  it.each([
    ['optional', none, true, 'continue'],
    ['required', none, true, 'continue'],
    ['optional', { totpRegistered: true, unusedRecoveryCodes: 0, passkeyCount: 0 }, true, 'second factor: totp'],
    [
      'optional',
      { totpRegistered: true, unusedRecoveryCodes: 4, passkeyCount: 2 },
      true,
      'second factor: passkey, totp, recovery_code',
    ],
    ['required', { totpRegistered: false, unusedRecoveryCodes: 0, passkeyCount: 1 }, true, 'second factor: passkey'],
    // With passkeys turned off, a passkey is no factor.
    ['required', { totpRegistered: false, unusedRecoveryCodes: 0, passkeyCount: 1 }, false, 'continue'],
    [
      'optional',
      { totpRegistered: true, unusedRecoveryCodes: 1, passkeyCount: 1 },
      false,
      'second factor: totp, recovery_code',
    ],
    // Recovery codes without a registered app do not count.
    ['optional', { totpRegistered: false, unusedRecoveryCodes: 3, passkeyCount: 0 }, true, 'continue'],
  ] as const)('policy %s, factors %j, passkeys on: %s → %s', async (policy, found, passkeysEnabled, expected) => {
    const deps = signInDeps({ secondFactorPolicy: policy, passkeysEnabled, factors: factorsOf(found) });
    expect(summary(await secondFactor({ identity: newIdentity(), request: null }, deps))).toBe(expected);
  });

  it.each([[['hwk']], [['pwd', 'otp']], [['pwd', 'hwk']]])(
    'lets a sign-in made with a second factor (%j) pass without looking',
    async (amr) => {
      const deps = signInDeps({ factors: { summarize: () => Promise.reject(new Error('not asked')) } });
      expect(summary(await secondFactor({ identity: newIdentity({}, amr), request: null }, deps))).toBe('continue');
    },
  );

  it.each<Policy>(['optional', 'required_for_admins', 'required'])(
    'lets a session pass under policy %s: it passed when it was created',
    async (policy) => {
      const deps = signInDeps({
        secondFactorPolicy: policy,
        factors: { summarize: () => Promise.reject(new Error('not asked')) },
      });
      expect(summary(await secondFactor({ identity: session(), request: pending() }, deps))).toBe('continue');
    },
  );
});
