import type { SignInDeps } from './sign-in-deps.js';
import type { Identity, SignInStart } from './sign-in-state.js';
import { signInSteps, type IdentifyStep, type SignInStep } from './sign-in-steps.js';
import type { StepResult } from './step-result.js';

/** How a run ends: every step passed (the caller answers), or the first step that did not pass says why. */
export type SignInResult = { kind: 'complete'; identity: Identity } | Exclude<StepResult, { kind: 'continue' }>;

/** Runs the sign-in steps in order; each gets the state the previous one passed on. */
export async function runSignIn(start: SignInStart, deps: SignInDeps): Promise<SignInResult> {
  // Typed by the steps' contract: a step may answer now or later.
  const [first, ...rest]: readonly [IdentifyStep, ...SignInStep[]] = signInSteps;
  let result = await first(start, deps);
  for (const step of rest) {
    if (result.kind !== 'continue') return result;
    result = await step(result.state, deps);
  }
  return result.kind === 'continue' ? { kind: 'complete', identity: result.state.identity } : result;
}
