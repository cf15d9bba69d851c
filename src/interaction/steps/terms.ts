import { authorizeReturnTo, termsLocation } from '../interaction-location.js';
import type { SignInDeps } from '../sign-in-deps.js';
import type { Identified } from '../sign-in-state.js';
import { proceed, refuse, showPage, type StepResult } from '../step-result.js';

/**
 * terms (docs/oidc.md, "Interaction: the sign-in steps", issue #14), on every authorization request, so that a
 * version applied while a user is signed in is asked at their next one: a
 * user who has not accepted a required explicit term at its current version
 * goes to /terms (under prompt=none: interaction_required); declining there
 * ends the request with access_denied. Implicit terms at a version the user
 * has not seen go to /terms too, which shows the notice and records them on
 * Continue; under prompt=none, when nothing else is missing, they are
 * recorded here instead, since going on is what accepts them. Optional
 * explicit terms never stop a sign-in: /terms offers them when it shows.
 * A sign-in through the API without an authorization request is not asked
 * here: the page the browser goes to next is an authorization request.
 */
export async function terms(state: Identified, deps: SignInDeps): Promise<StepResult> {
  const { identity, request } = state;
  if (request === null) return proceed(state);
  if (request.termsDeclined)
    return refuse({ error: 'access_denied', description: 'The user declined the terms of service.' });
  const outstanding = await deps.terms.outstanding(identity.sub);
  if (outstanding.required.length === 0 && outstanding.implicit.length === 0) return proceed(state);
  if (outstanding.required.length === 0 && request.prompt.has('none')) {
    await deps.terms.accept(identity.sub, outstanding.implicit, { clientAddress: null });
    return proceed(state);
  }
  const location = termsLocation(authorizeReturnTo(request));
  return showPage(request, location, {
    error: 'interaction_required',
    description: 'The user must accept the terms of service.',
  });
}
