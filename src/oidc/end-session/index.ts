/**
 * RP-Initiated Logout 1.0: id_token_hint (one of our ID tokens, expired or
 * not), post_logout_redirect_uri (exact match against the client's
 * registered ones), state. Flow: read the hint → check client_id against
 * it → resolve the redirect → decide about the browser session. The
 * session ends at once only for a hint of its own user and sign-in;
 * otherwise the user is asked (§2: "the OP MUST ask the End-User" without
 * a hint, or with one that does not belong to the current session), and
 * only the confirmed request, posted by our page, ends it. The HTTP layer
 * shows the question, ends the session when told to, and redirects or
 * shows the signed-out page.
 */
import { isRegisteredPostLogoutRedirectUri } from '../../clients/index.js';
import { OAuthError } from '../errors.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import { readIdTokenHint, type IdTokenHint } from '../tokens/index.js';

export interface EndSessionRequest {
  idTokenHint: string | undefined;
  postLogoutRedirectUri: string | undefined;
  clientId: string | undefined;
  state: string | undefined;
  /** The signed-in user of the browser session, when they signed in (epoch ms) and its sid, if any. */
  session: BrowserSession | null;
  /** The user answered our question with "Sign out" (the same-origin form post). */
  confirmed: boolean;
}

export type EndSessionOutcome =
  /** `clientName`: the application that asks, when it is known for sure (askingClientName), for the question to name. */
  | { kind: 'confirm'; clientName: string | null }
  | { kind: 'redirect'; location: string; endSession: boolean }
  | { kind: 'logged_out_page'; endSession: boolean };

export interface BrowserSession {
  sub: string;
  authTime: number;
  /** SessionRecord.publicId, the `sid` of the ID tokens issued in it. */
  sid: string;
}

/**
 * The hint speaks for this session: same user, and issued in this session
 * (its `sid`), so that an ID token of another session, earlier or later,
 * cannot sign the user out of this one unasked. A hint without `sid`
 * (issued before idp had it) must at least come from this sign-in or a
 * later one (auth_time, in whole seconds).
 */
function hintMatchesSession(hint: IdTokenHint | null, session: BrowserSession): boolean {
  if (hint === null || hint.sub !== session.sub) return false;
  if (hint.sid !== null) return hint.sid === session.sid;
  return hint.authTime !== null && hint.authTime >= Math.floor(session.authTime / 1000) * 1000;
}

/** §3: the redirect URI must be one the client registered; `state` goes back with it. */
async function postLogoutLocation(
  request: EndSessionRequest,
  hint: IdTokenHint | null,
  deps: ProtocolDeps,
): Promise<string | null> {
  if (request.postLogoutRedirectUri === undefined) return null;
  const clientId = hint?.clientId ?? request.clientId;
  if (clientId === undefined)
    throw new OAuthError('invalid_request', 'post_logout_redirect_uri needs an id_token_hint or a client_id.');
  const client = await deps.clients.find(clientId);
  if (!client || !isRegisteredPostLogoutRedirectUri(client, request.postLogoutRedirectUri)) {
    throw new OAuthError('invalid_request', 'The post_logout_redirect_uri is not registered for this client.');
  }
  const location = new URL(request.postLogoutRedirectUri);
  if (request.state !== undefined) location.searchParams.set('state', request.state);
  return location.href;
}

/**
 * The application behind the request, as far as nobody could have made it
 * up: the audience of a hint we signed, or the client_id whose registered
 * post_logout_redirect_uri the browser is sent to afterwards. A bare
 * client_id is anyone's to put in a link, so it names nobody: a page must
 * not tell the user that an application they trust asks them to sign out.
 */
async function askingClientName(
  request: EndSessionRequest,
  hint: IdTokenHint | null,
  location: string | null,
  deps: ProtocolDeps,
): Promise<string | null> {
  const clientId = hint?.clientId ?? (location === null ? undefined : request.clientId);
  if (clientId === undefined) return null;
  return (await deps.clients.find(clientId))?.name ?? null;
}

export async function endSession(request: EndSessionRequest, deps: ProtocolDeps): Promise<EndSessionOutcome> {
  const hint = request.idTokenHint ? await readIdTokenHint(request.idTokenHint, deps) : null;
  if (hint && request.clientId !== undefined && request.clientId !== hint.clientId) {
    throw new OAuthError('invalid_request', 'The client_id does not match the id_token_hint.');
  }
  const location = await postLogoutLocation(request, hint, deps);
  const { session } = request;
  if (session !== null && !request.confirmed && !hintMatchesSession(hint, session))
    return { kind: 'confirm', clientName: await askingClientName(request, hint, location, deps) };
  const endsSession = session !== null;
  return location === null
    ? { kind: 'logged_out_page', endSession: endsSession }
    : { kind: 'redirect', location, endSession: endsSession };
}
