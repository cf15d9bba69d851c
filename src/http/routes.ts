import type { Config } from '../config/types.js';
import type { RouteDefinition } from './route-definition.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi/build-openapi-document.js';
import { healthRoute } from './routes/health-route.js';
import { loginRoute, logoutRoute, sessionRoute } from './routes/auth-routes.js';
import {
  adminCreateUserRoute,
  adminDeleteUserRoute,
  adminGetUserRoute,
  adminListUsersRoute,
  adminMeRoute,
  adminUpdateUserRoute,
} from './routes/admin-routes.js';
import { docsRoutes, staticOpenApiRoute } from './routes/docs-routes.js';
import { authorizeGetRoute, authorizePostRoute } from './routes/authorize-routes.js';
import { introspectRoute, revokeRoute, tokenRoute } from './routes/token-routes.js';
import { discoveryRoute, jwksRoute } from './routes/discovery-routes.js';
import { userinfoGetRoute, userinfoPostRoute } from './routes/userinfo-routes.js';
import { endSessionGetRoute, endSessionPostRoute } from './routes/end-session-routes.js';
import { consentGetRoute, consentPostRoute } from './routes/consent-routes.js';
import { accountsListRoute, accountsSelectRoute } from './routes/account-routes.js';
import { frontendGetRoute, frontendProxyRoutes } from './routes/frontend-routes.js';

/**
 * THE route table (STYLE.md 2): every METHOD path → handler of the server,
 * with its auth mode, in blocks. Protocol routes (/oauth2, discovery) go in
 * their own block with `protocol: true` so errors render as OAuthError.
 */

/** Anyone, or a browser session. */
const publicRoutes: RouteDefinition[] = [
  healthRoute,
  loginRoute,
  logoutRoute,
  sessionRoute,
  accountsListRoute,
  accountsSelectRoute,
  consentGetRoute,
  consentPostRoute,
];

/** OpenID Connect protocol endpoints (DESIGN.md 7): the OIDC engineers add theirs here. */
const protocolRoutes: RouteDefinition[] = [
  discoveryRoute,
  jwksRoute,
  authorizeGetRoute,
  authorizePostRoute,
  tokenRoute,
  userinfoGetRoute,
  userinfoPostRoute,
  revokeRoute,
  introspectRoute,
  endSessionGetRoute,
  endSessionPostRoute,
];

/** SPEC.md 4: every operation requires an admin session (cookieSessionAuth). */
const adminRoutes: RouteDefinition[] = [
  adminMeRoute,
  adminListUsersRoute,
  adminCreateUserRoute,
  adminGetUserRoute,
  adminUpdateUserRoute,
  adminDeleteUserRoute,
];

/** The routes the OpenAPI document describes. */
export function documentedRoutes(): RouteDefinition[] {
  return [...publicRoutes, ...protocolRoutes, ...adminRoutes];
}

export function openApiDocument(config: Config): OpenApiDocument {
  return buildOpenApiDocument(documentedRoutes(), config.openapi);
}

/** Everything the server serves for this config. */
export function routeTable(config: Config): RouteDefinition[] {
  let document: OpenApiDocument | undefined;
  const docs = config.openapi.enabled ? docsRoutes(() => (document ??= openApiDocument(config))) : [];
  // Last: the web UI answers every path the API does not own (src/web).
  const frontend = [frontendGetRoute, ...frontendProxyRoutes];
  return [...documentedRoutes(), ...docs, staticOpenApiRoute, ...frontend];
}
