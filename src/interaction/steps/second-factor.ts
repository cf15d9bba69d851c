import { availableFactors, hasSecondFactor, noFactors } from '../../accounts/login-second-factors.js';
import type { SignInDeps } from '../sign-in-deps.js';
import type { Identified } from '../sign-in-state.js';
import { proceed, type StepResult } from '../step-result.js';

/**
 * secondFactor: a new sign-in of a user who has registered a second factor
 * (an authenticator app, a passkey) waits for one of them, unless it was
 * made with one already (a passkey, or the code that completed it): a
 * factor once registered is always asked, whatever auth.second_factor
 * says. The login API answers with a pending session that only the
 * second-factor routes accept. A session passed this step when it was
 * created. Users without a factor pass; enrolSecondFactor, next, decides
 * whether they must register one.
 */
export async function secondFactor(state: Identified, deps: SignInDeps): Promise<StepResult> {
  const { identity } = state;
  if (identity.kind === 'session' || hasSecondFactor(identity.amr)) return proceed(state);
  const summary = (await deps.factors.summarize([identity.sub])).get(identity.sub) ?? noFactors;
  const factors = availableFactors(summary, deps.passkeysEnabled);
  return factors.length === 0 ? proceed(state) : { kind: 'second_factor', factors };
}
