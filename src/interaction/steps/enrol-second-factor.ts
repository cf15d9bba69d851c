import { hasSecondFactor, isSecondFactorRequired } from '../../accounts/login-second-factors.js';
import type { SignInDeps } from '../sign-in-deps.js';
import type { Identified } from '../sign-in-state.js';
import { proceed, type StepResult } from '../step-result.js';

/**
 * enrolSecondFactor: a new sign-in without a second factor, of a user who
 * must use one (their own flag or auth.second_factor, docs/http-api.md, "Second factors"), or
 * one a client asked a second factor of (the step-up of clientSecondFactor), waits
 * for the enrolment of one (an authenticator app or a passkey) instead of
 * ending in a dead end. It runs after secondFactor, which stops every
 * sign-in of a user who has a usable factor: whoever gets here has none.
 * The login API answers `factors: []` and `enrolment_required: true`, and
 * the pending session may call only the enrolment routes; the first factor
 * confirmed there completes the sign-in.
 */
export function enrolSecondFactor(state: Identified, deps: SignInDeps): StepResult {
  const { identity } = state;
  if (identity.kind === 'session' || hasSecondFactor(identity.amr)) return proceed(state);
  const required =
    identity.secondFactorRequired === true || isSecondFactorRequired(identity.user, deps.secondFactorPolicy);
  return required ? { kind: 'second_factor_enrolment' } : proceed(state);
}
