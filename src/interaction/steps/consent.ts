import { authorizeReturnTo, consentLocation } from '../interaction-location.js';
import type { SignInDeps } from '../sign-in-deps.js';
import { consentScopes, type Identified, type PendingAuthorization } from '../sign-in-state.js';
import { proceed, refuse, showPage, type StepResult } from '../step-result.js';

/**
 * consent: the user allows the client the requested scopes on /consent
 * (../consent-service.ts records it), with the scopes of the claims the
 * `claims` parameter asks for beyond them, unless every scope was granted
 * before or the client skips consent; prompt=consent always asks. A
 * device's request (RFC 8628 §5.4) is always asked, whatever was granted or
 * skipped, until the signed-in user allowed it (DeviceRequest.confirmedBy).
 * A Deny ends the request with access_denied (RFC 6749 §4.1.2.1).
 */
export async function consent(state: Identified, deps: SignInDeps): Promise<StepResult> {
  const { identity, request } = state;
  if (request === null) return proceed(state);
  if (request.consentDenied) return refuse({ error: 'access_denied', description: 'The user denied the request.' });
  // A device's request is allowed on the page every time, by the user signed in now: a link with
  // someone else's user code must never be approved without them reading whose device it is.
  const needed =
    request.device === null
      ? await needsConsent(request, identity.sub, deps)
      : request.device.confirmedBy !== identity.sub;
  if (!needed) return proceed(state);
  const location = consentLocation(authorizeReturnTo(request, { dropPrompt: 'consent' }));
  return showPage(request, location, {
    error: 'consent_required',
    description: 'The user must consent to this request.',
  });
}

async function needsConsent(request: PendingAuthorization, sub: string, deps: SignInDeps): Promise<boolean> {
  if (request.prompt.has('consent')) return true;
  if (request.client.skipConsent) return false;
  const granted = await deps.grantedScopes(sub, request.client.clientId);
  return consentScopes(request).some((scope) => !granted.includes(scope));
}
