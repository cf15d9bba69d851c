import type { Clock } from '../../clock.js';
import type { SignInDeps } from '../../interaction/index.js';
import type { OAuthError } from '../errors.js';
import type { PushedRequests } from './pushed-requests.js';
import type { AuthorizationCodeRecord, ClientAccess, UserRecord } from '../../model/index.js';

/** checkPrompt reads the prompt values, the sign-in steps act on them: defined once, in src/interaction. */
export type { Prompt } from '../../interaction/index.js';

/** The wire parameters as they arrived (query or form body); a repeated one is an array. */
export type RawAuthorizationParams = Record<string, string | string[] | undefined>;

/** What the authorization endpoint needs to know about a client (a view of ClientRecord). */
export interface AuthorizeClient {
  clientId: string;
  name: string;
  redirectUris: string[];
  grantTypes: string[];
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'none';
  scopes: string[];
  requirePkce: boolean;
  skipConsent: boolean;
  /** RFC 9126 §5: only pushed requests are accepted. */
  requirePushedAuthorizationRequests: boolean;
  /** Who may use the client (`clients[].access`); null: every active user. */
  access: ClientAccess | null;
}

/** The browser's signed-in session, when there is one. */
export interface AuthorizeSession {
  sub: string;
  /** OIDC Core §2 auth_time, epoch ms. */
  authTime: number;
  /** RFC 8176 methods of the sign-in (SessionRecord.amr), for the ID token. */
  amr: string[];
  /** SessionRecord.idHash. */
  sessionId: string;
  /** SessionRecord.publicId: the `sid` of the ID tokens. */
  sid: string;
  /** The session's user, as the cookie's session resolved it on this request. */
  user: UserRecord;
}

export type ResponseMode = 'query' | 'form_post';

/** Where errors and the code go once the redirect URI is trusted. */
export interface RedirectTarget {
  redirectUri: string;
  responseMode: ResponseMode;
  state: string | null;
}

/**
 * The three ways an authorization request ends. The HTTP layer renders them:
 * an HTML error page, a 302 (query) or an auto-submitted form (form_post) to
 * the client, or a 302 to a same-origin interaction page.
 */
export type AuthorizeOutcome =
  | { kind: 'error_page'; error: OAuthError }
  | { kind: 'client_response'; target: RedirectTarget; params: Record<string, string> }
  | { kind: 'interaction'; location: string };

export interface AuthorizeDeps {
  /** server.base_url: the `iss` of RFC 9207 and of ID tokens. */
  issuer: string;
  clock: Clock;
  codeTtlSeconds: number;
  findClient(clientId: string): Promise<AuthorizeClient | null>;
  /** What the sign-in steps of src/interaction read (resolveInteraction runs them). */
  signIn: SignInDeps;
  saveCode(record: AuthorizationCodeRecord): Promise<void>;
  /** RFC 9126: the PAR endpoint's requests, and their way through the sign-in pages. */
  pushedRequests: PushedRequests;
}
