/**
 * Pushed Authorization Requests (RFC 9126): POST /oauth2/par. The client
 * authenticates as at the token endpoint and sends the authorization
 * parameters as a form; they pass every check the authorization endpoint
 * makes that does not depend on who signs in (its validation steps), and
 * are stored under a one-time request_uri that the browser brings to
 * /oauth2/authorize (src/oidc/authorize, resolvePushedRequest). Errors are
 * RFC 6749 §5.2 JSON: the client is on the line, no browser is involved.
 */
import type { ClientAuthenticationDeps, PresentedCredentials } from '../../clients/index.js';
import { authenticateClient } from '../authenticate-client.js';
import { requestChecks } from '../authorize/index.js';
import { parse } from '../authorize/parse.js';
import type { AuthorizeDeps, RawAuthorizationParams } from '../authorize/types.js';
import { authorizePath, maxReturnToLength } from '../../interaction/index.js';
import { OAuthError } from '../errors.js';
import { pushedRequestParam } from '../authorize/pushed-requests.js';

export interface PushedAuthorizationRequest {
  /** The form as it arrived; a repeated parameter is an array. */
  params: RawAuthorizationParams;
  credentials: PresentedCredentials;
}

/** RFC 9126 §2.2. */
export interface PushedAuthorizationResponse {
  request_uri: string;
  expires_in: number;
}

export async function pushAuthorizationRequest(
  request: PushedAuthorizationRequest,
  deps: { authorize: AuthorizeDeps; clientAuthentication: ClientAuthenticationDeps },
): Promise<PushedAuthorizationResponse> {
  const client = await authenticateClient(request.credentials, deps.clientAuthentication);
  // The client's secret is authentication, not a parameter of the request; a
  // client_id other than the authenticated client's was refused with the credentials.
  const { client_secret: _secret, client_id: _clientId, ...form } = request.params;
  const parsed = parse({ params: form, session: null });
  // Only the parameters that were sent are there.
  const sent: Readonly<Partial<Record<string, string>>> = parsed.params;
  // §2.1: a pushed request cannot point at another one.
  if (sent.request_uri !== undefined)
    throw new OAuthError('invalid_request', 'The request_uri parameter cannot be pushed.');
  const clientId = client.clientId;
  const params = { ...parsed.params, client_id: clientId };
  // Every check of the authorization endpoint that does not depend on who signs in; each throws its OAuthError.
  let state: unknown = { ...parsed, params, pushed: true };
  for (const check of requestChecks) state = await check(state as never, deps.authorize);
  checkFitsThroughPages(params, deps.authorize);
  const { requestUri, expiresIn } = await deps.authorize.pushedRequests.push(clientId, params);
  return { request_uri: requestUri, expires_in: expiresIn };
}

/** Room left in return_to for the parameters the sign-in pages add on the way (auth_after and the like). */
const roomForInteraction = 256;

/**
 * The claimed request goes through the sign-in pages in return_to, plain
 * and sealed (src/oidc/authorize/resolve-pushed-request.ts): a request too
 * long for it is refused now, in JSON, rather than on a page later.
 */
function checkFitsThroughPages(params: Record<string, string>, deps: AuthorizeDeps): void {
  const sealed = deps.pushedRequests.seal(params.client_id, params);
  const query = new URLSearchParams({ ...params, [pushedRequestParam]: sealed }).toString();
  if (authorizePath.length + 1 + query.length + roomForInteraction > maxReturnToLength) {
    throw new OAuthError('invalid_request', 'The pushed parameters are too long to go through the sign-in pages.');
  }
}
