/**
 * The built-in web UI and the `frontend` serving (docs/oidc.md, "Frontend serving"; docs/ui.md).
 * ./pages renders the pages in the request's locale; ./public/ui holds their
 * small ES modules and the CSS, served as they are; the pages talk only to
 * the JSON API. createFrontend picks static files, a proxy to the
 * developer's own front end, or nothing (API-only);
 * src/http/routes/frontend-routes.ts mounts it on every path the API and the
 * built-in pages do not own. contentSecurityPolicy is the policy of the
 * pages idp renders itself (not of an operator's front end).
 */
export { createFrontend, usesBuiltinUi, type Frontend } from './create-frontend.js';
export { ProxyTimeoutError } from './proxy-frontend.js';
export { builtinUiDirectory } from './builtin-ui-directory.js';
export { isApiPath } from './is-api-path.js';
export * from './pages/index.js';
export { renderFormPostPage } from './form-post-page.js';
export { qrCodeSvg } from './qr-code-svg.js';
export { loadWebAuthnBrowserModules } from './webauthn-browser-modules.js';
export { contentSecurityPolicy } from './content-security-policy.js';
export { renderDocsStylesheet } from './docs-stylesheet.js';
export { loadUiBundles } from './ui-bundles.js';
export { fillHtmlVariables, escapeHtml } from './html-variables.js';
