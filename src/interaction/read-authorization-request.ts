import { ApiError } from '../api-error.js';
import { authorizePath, validationSteps, type AuthorizeDeps, type AuthorizeSession, type RawAuthorizationParams } from '../oidc/authorize/index.js';
import { runSteps } from '../oidc/authorize/run-steps.js';
import { isSafeReturnTo } from './return-to.js';

export const invalidReturnTo = () =>
  new ApiError(400, 'INVALID_RETURN_TO', 'The return_to parameter is not a valid authorization request on this server.');

/**
 * The authorization request an interaction page was sent with: return_to
 * must be a safe same-origin path to /oauth2/authorize, and the request must
 * still pass every validation step (the client or its redirect URIs may
 * have changed since).
 */
export async function readAuthorizationRequest(returnTo: unknown, session: AuthorizeSession, deps: AuthorizeDeps) {
  if (!isSafeReturnTo(returnTo)) throw invalidReturnTo();
  const url = new URL(returnTo, 'http://return-to.invalid');
  if (url.pathname !== authorizePath) throw invalidReturnTo();
  const params: RawAuthorizationParams = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    params[name] = values.length === 1 ? values[0] : values;
  }
  const result = await runSteps(validationSteps, { params, session }, deps);
  if ('outcome' in result) throw invalidReturnTo();
  return result.state;
}
