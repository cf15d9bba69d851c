/**
 * Upstream identity providers (docs/http-api.md, "Upstream identity providers"): signing in with GitHub,
 * Google, Apple or any OAuth 2.0 / OpenID Connect provider of the config's
 * `identity_providers`, linking them to accounts, and the OAuth Connect API.
 *
 * The flow (./federation-service.ts): begin → the upstream → finish →
 * account rules (./account-rules.ts) → upstream memberships → the
 * sign-in steps of src/interaction (amr `fed`) → return_to.
 * - ./upstream-provider.ts: the applied provider with its secret; built-in
 *   endpoints of github, google and apple, overridable by the config.
 * - ./upstream-states.ts: state bound to the browser, single use; PKCE and
 *   nonce derived from it.
 * - ./upstream-client.ts: the authorization URL, the code exchange, and the
 *   identity: a verified ID token (./verify-id-token.ts, jose, with the
 *   issuer of ./openid-metadata.ts) or the userinfo and e-mail endpoints.
 * - ./upstream-groups.ts: the `upstream` rules of groups matched against
 *   what the upstream asserts (a claim; a GitHub team, ./github-teams.ts);
 *   ./upstream-memberships.ts replaces the user's memberships from that
 *   provider with them at each sign-in, before the sign-in steps.
 * - ./pending-link.ts: a link waiting for the person to sign in to the
 *   existing account.
 * - ./connection-service.ts: GET /api/connections, DELETE /api/connections/{provider_id}.
 * Every failure is a FederationError whose code lands on /login?error=CODE.
 */
export { wireFederation } from './wire-federation.js';
export {
  createFederationService,
  loginErrorLocation,
  providerPaths,
  type FederationAnswer,
  type FederationService,
  type FederationSession,
  type ProviderSummary,
} from './federation-service.js';
export { createConnectionService, type ConnectionService, type ConnectionView } from './connection-service.js';
export { createAccountRules, type CreateUpstreamUser } from './account-rules.js';
export {
  createUpstreamDirectory,
  builtInProviders,
  isOpenIdProvider,
  type UpstreamDirectory,
  type UpstreamProvider,
} from './upstream-provider.js';
export { createUpstreamStates, upstreamStateTtlMs } from './upstream-states.js';
export { createPendingLinks, pendingLinkTtlMs } from './pending-link.js';
export { createOpenIdMetadataCache } from './openid-metadata.js';
export { createKeySets } from './verify-id-token.js';
export { defaultUpstreamTimeoutMs } from './fetch-upstream.js';
export { FederationError, UpstreamError, type FederationErrorCode } from './federation-error.js';
