import { hasSecondFactor } from '../../accounts/login-second-factors.js';
import { authorizeReturnTo, stepUpLocation } from '../interaction-location.js';
import type { Identified } from '../sign-in-state.js';
import { proceed, showPage, type StepResult } from '../step-result.js';

/**
 * clientSecondFactor (docs/oidc.md, "Interaction: the sign-in steps"): a
 * client whose access says `second_factor: required`, or a request that
 * demands acr `aal2` (acr_values, an essential acr claim), gets no sign-in
 * without a second factor in it (`amr` has `otp` or `hwk`). The browser
 * goes to /login/second-factor with `step_up`, which asks the user to start
 * the step-up (POST /api/auth/step-up): the session then waits for one of
 * the user's factors, or for the enrolment of a first one, like any
 * pending sign-in, and comes back here with it. This step never changes
 * the session itself: a GET of the authorization endpoint can come from
 * any site, and would otherwise sign the user halfway out. Under
 * prompt=none: interaction_required. A sign-in through the API has no
 * client to ask.
 */
export function clientSecondFactor(state: Identified): StepResult {
  const { identity, request } = state;
  if (request === null || hasSecondFactor(identity.amr)) return proceed(state);
  const clientRequires = request.client.access?.secondFactor === 'required';
  if (!clientRequires && request.requiredAcr !== 'aal2') return proceed(state);
  return showPage(request, stepUpLocation(authorizeReturnTo(request)), {
    error: 'interaction_required',
    description: clientRequires
      ? 'The client requires a second factor.'
      : 'The request asks for acr aal2, a sign-in with a second factor.',
  });
}
