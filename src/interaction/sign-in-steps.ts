import type { SignInDeps } from './sign-in-deps.js';
import type { Identified, SignInStart } from './sign-in-state.js';
import type { StepResult } from './step-result.js';
import { access } from './steps/access.js';
import { clientSecondFactor } from './steps/client-second-factor.js';
import { consent } from './steps/consent.js';
import { enrolSecondFactor } from './steps/enrol-second-factor.js';
import { emailVerified } from './steps/email-verified.js';
import { identify } from './steps/identify.js';
import { secondFactor } from './steps/second-factor.js';
import { selectAccount } from './steps/select-account.js';
import { terms } from './steps/terms.js';

/** The first step turns "maybe someone" into "someone"; every later one knows who. */
export type IdentifyStep = (state: SignInStart, deps: SignInDeps) => StepResult | Promise<StepResult>;
export type SignInStep = (state: Identified, deps: SignInDeps) => StepResult | Promise<StepResult>;

/**
 * The sign-in, in order (docs/oidc.md, "Interaction: the sign-in steps"; ./index.ts says what each decides).
 * A new step is a module in ./steps/ inserted here, at its place in the order.
 */
export const signInSteps = [
  identify,
  selectAccount,
  secondFactor,
  enrolSecondFactor,
  access,
  clientSecondFactor,
  emailVerified,
  terms,
  consent,
] as const satisfies readonly [IdentifyStep, ...SignInStep[]];
