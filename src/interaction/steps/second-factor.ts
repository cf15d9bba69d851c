import { availableFactors, isSecondFactorRequired, noFactors } from '../../accounts/login-second-factors.js';
import type { SignInDeps } from '../sign-in-deps.js';
import type { Identified } from '../sign-in-state.js';
import { proceed, type StepResult } from '../step-result.js';

/**
 * secondFactor: a new sign-in of a user who must use a second factor (their
 * own flag or auth.second_factor, DESIGN.md 11) waits for one, and says
 * which of theirs can complete it (empty: none registered yet). The login
 * API answers that with a pending session that no other route accepts. A
 * session passed this step when it was created.
 */
export async function secondFactor(state: Identified, deps: SignInDeps): Promise<StepResult> {
  const { identity } = state;
  if (identity.kind === 'session' || !isSecondFactorRequired(identity.user, deps.secondFactorPolicy)) return proceed(state);
  const summary = (await deps.factors.summarize([identity.sub])).get(identity.sub) ?? noFactors;
  return { kind: 'second_factor', factors: availableFactors(summary) };
}
