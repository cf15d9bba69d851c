import { describe, expect, it } from 'vitest';
import type { UserFactorSummary } from '../../../src/accounts/login-second-factors.js';
import type { AuthConfig } from '../../../src/config/types.js';
import { secondFactor } from '../../../src/interaction/steps/second-factor.js';
import { newIdentity, pending, session, signInDeps, summary } from '../sign-in-fixtures.js';

type Policy = AuthConfig['secondFactor'];

describe('secondFactor', () => {
  // DESIGN.md 11: the user's own flag or auth.second_factor.
  it.each([
    ['optional', 'user', false, 'continue'],
    ['optional', 'admin', false, 'continue'],
    ['optional', 'user', true, 'second factor: none registered'],
    ['required_for_admins', 'user', false, 'continue'],
    ['required_for_admins', 'admin', false, 'second factor: none registered'],
    ['required', 'user', false, 'second factor: none registered'],
  ] as const)('policy %s, a new sign-in of a %s (own flag %s) → %s', async (policy, role, flag, expected) => {
    const state = { identity: newIdentity({ role, secondFactorRequired: flag }), request: null };
    expect(summary(await secondFactor(state, signInDeps({ secondFactorPolicy: policy })))).toBe(expected);
  });

  it('offers the factors the user has, in the order the UI shows them', async () => {
    const summaries: Record<string, UserFactorSummary> = { alice: { totpRegistered: true, unusedRecoveryCodes: 3, passkeyCount: 1 } };
    const factors = { summarize: async (subs: string[]) => new Map(subs.map((sub) => [sub, summaries[sub]])) };
    const result = await secondFactor({ identity: newIdentity(), request: null }, signInDeps({ secondFactorPolicy: 'required', factors }));
    expect(summary(result)).toBe('second factor: passkey, totp, recovery_code');
  });

  it.each<Policy>(['optional', 'required_for_admins', 'required'])('lets a session pass under policy %s: it passed when it was created', async (policy) => {
    const deps = signInDeps({ secondFactorPolicy: policy, factors: { summarize: () => Promise.reject(new Error('not asked')) } });
    expect(summary(await secondFactor({ identity: session(), request: pending() }, deps))).toBe('continue');
  });
});
