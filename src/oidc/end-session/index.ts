/**
 * RP-Initiated Logout 1.0: id_token_hint (one of our ID tokens, expired or
 * not), post_logout_redirect_uri (exact match against the client's
 * registered ones), state. The engine decides; the HTTP layer ends the
 * browser session when told to and redirects or shows the logged-out page.
 */
import { isRegisteredPostLogoutRedirectUri } from '../../clients/index.js';
import { OAuthError } from '../errors.js';
import type { ProviderDeps } from '../provider-deps.js';
import { readIdTokenHint } from '../tokens/index.js';

export interface EndSessionRequest {
  idTokenHint: string | undefined;
  postLogoutRedirectUri: string | undefined;
  clientId: string | undefined;
  state: string | undefined;
  /** The signed-in user of the browser session, if any. */
  sessionSub: string | null;
}

export type EndSessionOutcome =
  | { kind: 'redirect'; location: string; endSession: boolean }
  | { kind: 'logged_out_page'; endSession: boolean };

export async function endSession(request: EndSessionRequest, deps: ProviderDeps): Promise<EndSessionOutcome> {
  const hint = request.idTokenHint ? await readIdTokenHint(request.idTokenHint, deps) : null;
  if (hint && request.clientId !== undefined && request.clientId !== hint.clientId) {
    throw new OAuthError('invalid_request', 'The client_id does not match the id_token_hint.');
  }
  // A hint for another user than the signed-in one must not sign that user out.
  const endsSession = request.sessionSub !== null && (hint === null || hint.sub === request.sessionSub);
  if (request.postLogoutRedirectUri === undefined) return { kind: 'logged_out_page', endSession: endsSession };
  const clientId = hint?.clientId ?? request.clientId;
  if (clientId === undefined) throw new OAuthError('invalid_request', 'post_logout_redirect_uri needs an id_token_hint or a client_id.');
  const client = await deps.clients.find(clientId);
  if (!client || !isRegisteredPostLogoutRedirectUri(client, request.postLogoutRedirectUri)) {
    throw new OAuthError('invalid_request', 'The post_logout_redirect_uri is not registered for this client.');
  }
  const location = new URL(request.postLogoutRedirectUri);
  if (request.state !== undefined) location.searchParams.set('state', request.state);
  return { kind: 'redirect', location: location.href, endSession: endsSession };
}
