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

  it("waits for an enrolment when a client's step-up requires a factor, whatever the policy says", () => {
    const steppedUp = { ...newIdentity(), secondFactorRequired: true };
    expect(summary(enrolSecondFactor({ identity: steppedUp, request: null }, signInDeps()))).toBe('enrolment');
    const withOtp = { ...newIdentity({}, ['pwd', 'otp']), secondFactorRequired: true };
    expect(summary(enrolSecondFactor({ identity: withOtp, request: null }, signInDeps()))).toBe('continue');
    const notSteppedUp = { ...newIdentity(), secondFactorRequired: false };
    expect(summary(enrolSecondFactor({ identity: notSteppedUp, request: null }, signInDeps()))).toBe('continue');
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
