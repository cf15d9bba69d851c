/**
 * The built-in web UI and the `frontend` serving of SPEC.md 2.5 / DESIGN.md 8.
 * ./public holds the pages (login.html, consent.html) and their small ES
 * modules and CSS under /ui/, served as they are; the pages talk only to the
 * JSON API. createFrontend picks static files, a proxy to the developer's
 * own front end, or nothing (API-only); src/http/routes/frontend-routes.ts
 * mounts it on every path the API does not own. contentSecurityPolicy is the
 * policy of the pages idp renders itself (not of an operator's front end).
 */
export { createFrontend, type Frontend } from './create-frontend.js';
export { ProxyTimeoutError } from './proxy-frontend.js';
export { builtinUiDirectory } from './builtin-ui-directory.js';
export { isApiPath } from './is-api-path.js';
export { renderErrorPage } from './error-page.js';
export { renderSignOutPage } from './sign-out-page.js';
export { renderSignedOutPage } from './signed-out-page.js';
export { renderFormPostPage } from './form-post-page.js';
export { contentSecurityPolicy } from './content-security-policy.js';
export { fillHtmlVariables, escapeHtml } from './html-variables.js';
