import { describe, expect, it } from 'vitest';
import { enrolSecondFactor } from '../../../src/interaction/steps/enrol-second-factor.js';
import { newIdentity, pending, session, signInDeps, summary } from '../sign-in-fixtures.js';

describe('enrolSecondFactor', () => {
  // docs/http-api.md, "Second factors": the user's own flag or auth.second_factor; whoever gets here has no usable factor.
  it.each([
    ['optional', 'user', false, 'continue'],
    ['optional', 'admin', false, 'continue'],
    ['optional', 'user', true, 'enrolment'],
    ['required_for_admins', 'user', false, 'continue'],
    ['required_for_admins', 'admin', false, 'enrolment'],
    ['required', 'user', false, 'enrolment'],
  ] as const)('policy %s, a new sign-in of a %s (own flag %s) → %s', (policy, role, flag, expected) => {
    const state = { identity: newIdentity({ role, secondFactorRequired: flag }), request: null };
    expect(summary(enrolSecondFactor(state, signInDeps({ secondFactorPolicy: policy })))).toBe(expected);
  });

  it('lets a sign-in made with a second factor pass, and a session', () => {
    const deps = signInDeps({ secondFactorPolicy: 'required' });
    expect(summary(enrolSecondFactor({ identity: newIdentity({}, ['hwk']), request: null }, deps))).toBe('continue');
    expect(summary(enrolSecondFactor({ identity: newIdentity({}, ['pwd', 'otp']), request: null }, deps))).toBe(
      'continue',
    );
    expect(summary(enrolSecondFactor({ identity: session(), request: pending() }, deps))).toBe('continue');
  });
});
