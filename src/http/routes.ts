import type { Config } from '../config/types.js';
import { route, type RouteDefinition } from './route-definition.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi/build-openapi-document.js';
import { healthRoute, readinessRoute } from './routes/health-route.js';
import { loginRoute, logoutRoute, sessionRoute } from './routes/auth-routes.js';
import {
  loginRecoveryCodeRoute,
  loginTotpRoute,
  passkeyOptionsRoute,
  passkeyVerifyRoute,
  stepUpRoute,
} from './routes/second-factor-login-routes.js';
import { recoveryCodesRoute, totpBeginRoute, totpConfirmRoute, totpDeleteRoute } from './routes/totp-routes.js';
import {
  passkeyDeleteRoute,
  passkeyListRoute,
  passkeyRegisterRoute,
  passkeyRegistrationOptionsRoute,
  passkeyRenameRoute,
} from './routes/passkey-routes.js';
import { registerRoute } from './routes/registration-routes.js';
import { resendVerificationRoute, verifyEmailRoute } from './routes/email-verification-routes.js';
import { forgotPasswordRoute, resetPasswordRoute } from './routes/password-reset-routes.js';
import {
  adminCreateUserRoute,
  adminDeleteUserRoute,
  adminGetUserRoute,
  adminListUsersRoute,
  adminMeRoute,
  adminResetSecondFactorsRoute,
  adminRestoreUserRoute,
  adminUpdateUserRoute,
} from './routes/admin-routes.js';
import { adminListEventsRoute } from './routes/admin-event-routes.js';
import {
  adminAddGroupMemberRoute,
  adminListGroupMembersRoute,
  adminListGroupsRoute,
  adminRemoveGroupMemberRoute,
  adminUserGroupsRoute,
} from './routes/admin-group-routes.js';
import { adminCheckAccessRoute } from './routes/admin-access-route.js';
import { adminTermsStatusRoute, termsAcceptRoute, termsListRoute } from './routes/terms-routes.js';
import { adminUnlockUserRoute } from './routes/admin-unlock-route.js';
import { adminLockedUsersRoute } from './routes/admin-locked-users-route.js';
import {
  docsAssetRoute,
  docsInitRoute,
  docsThemeRoute,
  docsJsonRoute,
  docsPageRoute,
  staticOpenApiRoute,
} from './routes/docs-routes.js';
import { authorizeGetRoute, authorizePostRoute } from './routes/authorize-routes.js';
import { introspectRoute, revokeRoute, tokenRoute } from './routes/token-routes.js';
import { parRoute } from './routes/par-routes.js';
import { authorizationServerMetadataRoute, discoveryRoute, jwksRoute } from './routes/discovery-routes.js';
import { userinfoGetRoute, userinfoPostRoute } from './routes/userinfo-routes.js';
import { endSessionConfirmRoute, endSessionGetRoute, endSessionPostRoute } from './routes/end-session-routes.js';
import { consentGetRoute, consentPostRoute } from './routes/consent-routes.js';
import {
  deviceAuthorizationRoute,
  deviceDonePageRoute,
  devicePageRoute,
  deviceVerificationRoute,
} from './routes/device-routes.js';
import { accountsForgetRoute, accountsListRoute, accountsSelectRoute } from './routes/account-routes.js';
import { userConsentRevokeRoute, userConsentsListRoute } from './routes/user-consent-routes.js';
import {
  userChangePasswordRoute,
  userDeleteRoute,
  userGetRoute,
  userGroupsRoute,
  userUpdateRoute,
} from './routes/user-routes.js';
import { frontendPageRoute, frontendProxyRoute } from './routes/frontend-routes.js';
import {
  accountPageRoute,
  authenticatorAppQrRoute,
  consentPageRoute,
  accessDeniedPageRoute,
  termsPageRoute,
  forgotPasswordPageRoute,
  homePageRoute,
  loginPageRoute,
  selectAccountPageRoute,
  registerPageRoute,
  resetPasswordPageRoute,
  secondFactorPageRoute,
  themeStylesheetRoute,
  faviconRoute,
  webAuthnBrowserRoute,
  uiBundleRoute,
  verifyEmailPageRoute,
} from './routes/page-routes.js';
import { usesBuiltinUi } from '../web/index.js';
import {
  consoleHomeRoute,
  consoleUserActionRoute,
  consoleUserConfirmRoute,
  consoleUserRoute,
  consoleUsersRoute,
} from './routes/console-user-routes.js';
import { setupPageRoute, setupPostRoute } from './routes/setup-routes.js';
import {
  consoleClientRoute,
  consoleClientsRoute,
  consoleEventsRoute,
  consoleGroupRoute,
  consoleGroupsRoute,
  consoleTermsRoute,
} from './routes/console-read-routes.js';
import {
  providerAuthorizeRoute,
  providerCallbackGetRoute,
  providerCallbackPostRoute,
  providerLinkRoute,
  providersListRoute,
} from './routes/provider-routes.js';
import { connectionDeleteRoute, connectionsListRoute } from './routes/connection-routes.js';
import { authRequestRoute, forwardAuthRoute } from './routes/forward-auth-routes.js';

/**
 * THE route table (CONTRIBUTING.md, "How the code is written", 2): every METHOD path → handler of the server,
 * with its auth mode (see RouteAuth) and, on the few that allow other
 * origins, its CORS mode (RouteCors), in blocks. The method, path, auth and
 * CORS mode written here are the only ones: the specs under ./routes/ hold
 * the schemas, OpenAPI text and handler. A row with a CORS mode also
 * answers its preflight (OPTIONS, ./create-cors.ts), which is not a row. test/http/route-table.storage.test.ts checks
 * that the server serves exactly these rows and documents the public ones.
 */

/** Anyone, or a browser session. */
const publicRoutes: RouteDefinition[] = [
  route('GET', '/api/health', 'none', healthRoute),
  route('GET', '/api/health/ready', 'none', readinessRoute),
  route('POST', '/api/auth/login', 'none', loginRoute),
  route('POST', '/api/auth/login/totp', 'pending-session', loginTotpRoute),
  route('POST', '/api/auth/login/recovery-code', 'pending-session', loginRecoveryCodeRoute),
  route('POST', '/api/auth/passkey/options', 'none', passkeyOptionsRoute),
  route('POST', '/api/auth/passkey/verify', 'none', passkeyVerifyRoute),
  route('POST', '/api/auth/step-up', 'session', stepUpRoute),
  route('POST', '/api/auth/logout', 'optional-session', logoutRoute),
  route('GET', '/api/auth/session', 'session', sessionRoute),
  route('POST', '/api/auth/register', 'none', registerRoute),
  route('POST', '/api/auth/email/verify', 'none', verifyEmailRoute),
  route('POST', '/api/auth/email/resend', 'none', resendVerificationRoute),
  route('POST', '/api/auth/password/forgot', 'none', forgotPasswordRoute),
  route('POST', '/api/auth/password/reset', 'none', resetPasswordRoute),
  route('GET', '/api/auth/accounts', 'none', accountsListRoute),
  route('POST', '/api/auth/accounts/select', 'none', accountsSelectRoute),
  route('POST', '/api/auth/accounts/forget', 'none', accountsForgetRoute),
  route('GET', '/api/consent', 'session', consentGetRoute),
  route('POST', '/api/consent', 'session', consentPostRoute),
  route('GET', '/api/consents', 'session', userConsentsListRoute),
  route('DELETE', '/api/consents/{client_id}', 'session', userConsentRevokeRoute),
  route('GET', '/api/terms', 'optional-session', termsListRoute),
  route('POST', '/api/terms/accept', 'session', termsAcceptRoute),
];

/**
 * The signed-in user's own account (User tag, docs/http-api.md, "Your own account"). The
 * enrolment of a second factor also takes the pending session of a user
 * who must register one at sign-in (session-or-pending).
 */
const userRoutes: RouteDefinition[] = [
  route('GET', '/api/user', 'session', userGetRoute),
  route('PATCH', '/api/user', 'session', userUpdateRoute),
  route('DELETE', '/api/user', 'session', userDeleteRoute),
  route('POST', '/api/user/password', 'session', userChangePasswordRoute),
  route('GET', '/api/user/groups', 'session', userGroupsRoute),
  route('POST', '/api/user/totp', 'session-or-pending', totpBeginRoute),
  route('POST', '/api/user/totp/confirm', 'session-or-pending', totpConfirmRoute),
  route('DELETE', '/api/user/totp', 'session', totpDeleteRoute),
  route('POST', '/api/user/recovery-codes', 'session', recoveryCodesRoute),
  route('GET', '/api/user/passkeys', 'session', passkeyListRoute),
  route('POST', '/api/user/passkeys/options', 'session-or-pending', passkeyRegistrationOptionsRoute),
  route('POST', '/api/user/passkeys', 'session-or-pending', passkeyRegisterRoute),
  route('PATCH', '/api/user/passkeys/{id}', 'session', passkeyRenameRoute),
  route('DELETE', '/api/user/passkeys/{id}', 'session', passkeyDeleteRoute),
];

/**
 * Upstream identity providers (docs/http-api.md, "Upstream identity providers"). The
 * provider routes are browser navigations answered with redirects; the
 * form_post callback is a cross-site POST by design (Apple), so it is not
 * session-authenticated and only hands the answer on to the GET callback.
 */
const federationRoutes: RouteDefinition[] = [
  route('GET', '/api/auth/providers', 'none', providersListRoute),
  route('GET', '/api/auth/providers/{id}/authorize', 'optional-session', providerAuthorizeRoute),
  route('GET', '/api/auth/providers/{id}/callback', 'optional-session', providerCallbackGetRoute),
  route('POST', '/api/auth/providers/{id}/callback', 'none', providerCallbackPostRoute),
  route('GET', '/api/auth/providers/{id}/link', 'optional-session', providerLinkRoute),
  route('GET', '/api/connections', 'session', connectionsListRoute),
  route('DELETE', '/api/connections/{provider_id}', 'session', connectionDeleteRoute),
];

/**
 * OpenID Connect protocol endpoints (docs/oidc.md): their specs say
 * `protocol: true`, so errors render as OAuthError. Auth none because each
 * authenticates in the engine: the client (RFC 6749 §2.3), the userinfo
 * bearer token (RFC 6750), the optional session of /oauth2/authorize and
 * /oauth2/logout. The answer of the sign-out page is the exception: our
 * own form, posted with the session, so the Origin rule guards it.
 * The fifth column is the CORS mode (RouteCors) of the routes a browser app
 * on another origin calls with fetch; authorize and logout are navigations
 * (they need the session cookie, which is never sent cross-origin), and
 * introspection is for confidential clients, whose secret is never in a browser.
 */
const protocolRoutes: RouteDefinition[] = [
  route('GET', '/.well-known/openid-configuration', 'none', discoveryRoute, { cors: 'any-origin' }),
  route('GET', '/.well-known/oauth-authorization-server', 'none', authorizationServerMetadataRoute, {
    cors: 'any-origin',
  }),
  route('GET', '/oauth2/jwks', 'none', jwksRoute, { cors: 'any-origin' }),
  route('GET', '/oauth2/authorize', 'none', authorizeGetRoute),
  route('POST', '/oauth2/authorize', 'none', authorizePostRoute),
  route('POST', '/oauth2/par', 'none', parRoute, { cors: 'public-client-origins' }),
  route('POST', '/oauth2/token', 'none', tokenRoute, { cors: 'public-client-origins' }),
  route('GET', '/oauth2/userinfo', 'none', userinfoGetRoute, { cors: 'client-origins' }),
  route('POST', '/oauth2/userinfo', 'none', userinfoPostRoute, { cors: 'client-origins' }),
  route('POST', '/oauth2/revoke', 'none', revokeRoute, { cors: 'public-client-origins' }),
  route('POST', '/oauth2/introspect', 'none', introspectRoute),
  route('POST', '/oauth2/device_authorization', 'none', deviceAuthorizationRoute),
  route('GET', '/oauth2/device_verification', 'none', deviceVerificationRoute),
  route('GET', '/oauth2/logout', 'none', endSessionGetRoute),
  route('POST', '/oauth2/logout', 'none', endSessionPostRoute),
  route('POST', '/oauth2/logout/confirm', 'optional-session', endSessionConfirmRoute),
];

/**
 * Forward authentication (docs/forward-auth.md): asked by a reverse proxy
 * about each request of a protected app. Auth none: the session is the
 * original request's cookie, read by the service from the caches, and the
 * caller must be a server.trust_proxy address (the routes check it first).
 */
const forwardAuthRoutes: RouteDefinition[] = [
  route('GET', '/api/forward-auth', 'none', forwardAuthRoute),
  route('GET', '/api/auth-request', 'none', authRequestRoute),
];

/** docs/http-api.md, "Admin API": every operation requires an admin session (cookieSessionAuth). */
const adminRoutes: RouteDefinition[] = [
  route('GET', '/api/admin/me', 'admin', adminMeRoute),
  route('GET', '/api/admin/users', 'admin', adminListUsersRoute),
  route('POST', '/api/admin/users', 'admin', adminCreateUserRoute),
  route('GET', '/api/admin/users/{sub}', 'admin', adminGetUserRoute),
  route('PATCH', '/api/admin/users/{sub}', 'admin', adminUpdateUserRoute),
  route('DELETE', '/api/admin/users/{sub}', 'admin', adminDeleteUserRoute),
  route('POST', '/api/admin/users/{sub}/restore', 'admin', adminRestoreUserRoute),
  route('DELETE', '/api/admin/users/{sub}/second-factors', 'admin', adminResetSecondFactorsRoute),
  route('GET', '/api/admin/events', 'admin', adminListEventsRoute),
  route('GET', '/api/admin/terms', 'admin', adminTermsStatusRoute),
  route('POST', '/api/admin/users/{sub}/unlock', 'admin', adminUnlockUserRoute),
  route('GET', '/api/admin/locked-users', 'admin', adminLockedUsersRoute),
  route('GET', '/api/admin/groups', 'admin', adminListGroupsRoute),
  route('GET', '/api/admin/groups/{id}/members', 'admin', adminListGroupMembersRoute),
  route('PUT', '/api/admin/groups/{id}/members/{sub}', 'admin', adminAddGroupMemberRoute),
  route('DELETE', '/api/admin/groups/{id}/members/{sub}', 'admin', adminRemoveGroupMemberRoute),
  route('GET', '/api/admin/users/{sub}/groups', 'admin', adminUserGroupsRoute),
  route('GET', '/api/admin/clients/{client_id}/access', 'admin', adminCheckAccessRoute),
];

/** The API reference, only when openapi.enabled is true; left out of the document it serves. */
function docsRoutes(config: Config): RouteDefinition[] {
  if (!config.openapi.enabled) return [];
  let document: OpenApiDocument | undefined;
  const live = () => (document ??= openApiDocument(config));
  return [
    route('GET', '/api/docs/json', 'none', docsJsonRoute(live)),
    route('GET', '/api/docs', 'none', docsPageRoute),
    route('GET', '/api/docs/init.js', 'none', docsInitRoute),
    route('GET', '/api/docs/theme.css', 'none', docsThemeRoute),
    route('GET', '/api/docs/assets/{file}', 'none', docsAssetRoute),
  ];
}

/**
 * The built-in UI's pages (src/web/pages), in the request's locale; only
 * when the built-in UI is served: with an operator's front end (or none)
 * these paths belong to the catch-all below. Undocumented: pages, not API
 * operations. The session is optional: it names the user and their locale.
 */
function builtinPageRoutes(config: Config): RouteDefinition[] {
  if (!usesBuiltinUi(config.frontend)) return [];
  return [
    route('GET', '/', 'optional-session', homePageRoute),
    route('GET', '/login', 'optional-session', loginPageRoute),
    route('GET', '/login/second-factor', 'none', secondFactorPageRoute),
    route('GET', '/select-account', 'optional-session', selectAccountPageRoute),
    route('GET', '/register', 'optional-session', registerPageRoute),
    route('GET', '/verify-email', 'optional-session', verifyEmailPageRoute),
    route('GET', '/forgot-password', 'optional-session', forgotPasswordPageRoute),
    route('GET', '/reset-password', 'optional-session', resetPasswordPageRoute),
    route('GET', '/terms', 'optional-session', termsPageRoute),
    route('GET', '/consent', 'optional-session', consentPageRoute),
    route('GET', '/access-denied', 'optional-session', accessDeniedPageRoute),
    route('GET', '/device', 'optional-session', devicePageRoute),
    route('GET', '/device/done', 'optional-session', deviceDonePageRoute),
    route('GET', '/account', 'optional-session', accountPageRoute),
    route('GET', '/ui/theme.css', 'none', themeStylesheetRoute),
    route('GET', '/favicon.ico', 'none', faviconRoute),
    route('GET', '/ui/authenticator-app-qr.svg', 'session-or-pending', authenticatorAppQrRoute),
    route('GET', '/ui/vendor/webauthn/{path*}', 'none', webAuthnBrowserRoute),
    route('GET', '/ui/bundle/{file}', 'none', uiBundleRoute),
    ...consoleRoutes,
  ];
}

/**
 * The admin console (docs/ui.md, "Admin console"), part of the built-in UI.
 * `optional-session`: the console's own check (src/http/console-access.ts)
 * sends a signed-out person to the sign-in page and shows others a 403
 * page; posts pass the Origin rule and carry the session's form token.
 */
const consoleRoutes: RouteDefinition[] = [
  route('GET', '/setup', 'optional-session', setupPageRoute),
  route('POST', '/setup', 'none', setupPostRoute),
  route('GET', '/admin', 'optional-session', consoleHomeRoute),
  route('GET', '/admin/users', 'optional-session', consoleUsersRoute),
  route('GET', '/admin/users/{sub}', 'optional-session', consoleUserRoute),
  route('GET', '/admin/users/{sub}/confirm', 'optional-session', consoleUserConfirmRoute),
  route('POST', '/admin/users/{sub}/{action}', 'optional-session', consoleUserActionRoute),
  route('GET', '/admin/groups', 'optional-session', consoleGroupsRoute),
  route('GET', '/admin/groups/{id}', 'optional-session', consoleGroupRoute),
  route('GET', '/admin/clients', 'optional-session', consoleClientsRoute),
  route('GET', '/admin/clients/{client_id}', 'optional-session', consoleClientRoute),
  route('GET', '/admin/terms', 'optional-session', consoleTermsRoute),
  route('GET', '/admin/events', 'optional-session', consoleEventsRoute),
];

/** Undocumented: the document built by `npm run build`, and the web UI on every path the API does not own (src/web). */
const staticRoutes: RouteDefinition[] = [
  route('GET', '/openapi.json', 'none', staticOpenApiRoute),
  route('GET', '/{path*}', 'none', frontendPageRoute),
  route('POST', '/{path*}', 'none', frontendProxyRoute),
  route('PUT', '/{path*}', 'none', frontendProxyRoute),
  route('PATCH', '/{path*}', 'none', frontendProxyRoute),
  route('DELETE', '/{path*}', 'none', frontendProxyRoute),
];

/** The routes the OpenAPI document describes. */
export function documentedRoutes(): RouteDefinition[] {
  return [...publicRoutes, ...userRoutes, ...federationRoutes, ...protocolRoutes, ...forwardAuthRoutes, ...adminRoutes];
}

export function openApiDocument(config: Config): OpenApiDocument {
  return buildOpenApiDocument(documentedRoutes(), config.openapi);
}

/** Everything the server serves for this config. */
export function routeTable(config: Config): RouteDefinition[] {
  return [...documentedRoutes(), ...docsRoutes(config), ...builtinPageRoutes(config), ...staticRoutes];
}
