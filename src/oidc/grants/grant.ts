import type { ClientRecord } from '../../model/index.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import type { GrantRequest, MissingParameters } from './grant-request.js';
import type { TokenForm } from './token-form.js';

/** What a grant's check settles, for the endpoint's scope step and the grant's issue. */
export interface Checked {
  /** RFC 6749 §3.3: the most the request may be granted, and what it gets without a scope parameter. */
  allowedScopes: string[];
}

/** The tokens a grant made, before the endpoint renders them (RFC 6749 §5.1). */
export interface IssuedTokens {
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
  idToken?: string;
  refreshToken?: string;
}

/**
 * One grant type (CONTRIBUTING.md, "How the code is written", 4). A grant says what it takes from the form
 * and does its own work in two phases; the token endpoint runs the shared
 * steps around them, so no grant can skip one: client authentication, the
 * client's permission for the grant, the required parameters, the scope
 * step (between `check` and `issue`) and the response.
 *
 * The phases are methods, not function-typed properties, on purpose: so a
 * Grant<AuthorizationCodeRequest, …> sits in the registry as a plain Grant,
 * and the registry's keys (grants/index.ts) keep each grant to its own
 * request and its own check's result.
 */
export interface Grant<R extends GrantRequest = GrantRequest, C extends Checked = Checked> {
  readonly grantType: R['grantType'];
  /** The grant's parameters, read once at the edge (the wire names live here), or the required ones missing. */
  read(form: TokenForm): R | MissingParameters;
  /**
   * Everything that can refuse the request before tokens are made, against
   * what it presents (a code, a refresh token, the client itself); it
   * settles the scopes the request may have.
   */
  check(request: R, client: ClientRecord, deps: ProtocolDeps): Promise<C>;
  /** The invalid_scope description, followed by the refused scopes (RFC 6749 §5.2). */
  readonly scopeRefusal: string;
  /** Makes and stores the tokens for the scopes the endpoint settled on. */
  issue(checked: C, scopes: string[], client: ClientRecord, deps: ProtocolDeps): Promise<IssuedTokens>;
}
