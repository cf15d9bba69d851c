import type { Lifecycle, Request, ResponseToolkit } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import type { HttpDeps } from '../http-deps.js';
import { readSession, readSessionCookieId, sessionOf } from '../auth/cookie-session-auth.js';
import { pageContextOf, pageResponse } from '../page-context.js';
import { ApiError } from '../../api-error.js';
import { hasSecondFactor } from '../../accounts/login-second-factors.js';
import { isSafeReturnTo } from '../../interaction/index.js';
import {
  pageHref,
  renderAccessDeniedErrorPage,
  renderAccessDeniedPage,
  renderAccountPage,
  renderConsentErrorPage,
  renderConsentPage,
  renderErrorPage,
  renderForgotPasswordPage,
  renderHomePage,
  renderLoginPage,
  renderRegisterPage,
  renderResetPasswordPage,
  renderSecondFactorPage,
  loadWebAuthnBrowserModules,
  qrCodeSvg,
  renderTermsErrorPage,
  renderTermsPage,
  renderThemeStylesheet,
  renderFavicon,
  renderVerifyEmailPage,
  stringParam,
  type PageContext,
} from '../../web/index.js';

/**
 * The built-in UI's pages (src/web/pages), rendered per request in its
 * locale. Served only with the built-in UI (routes.ts, builtinPageRoutes):
 * with an operator's front end these paths are theirs. Each handler reads
 * what the page shows (the session, the authorization request behind
 * return_to) and leaves the rest to the page's script and the JSON API.
 */
type PageHandler = (deps: HttpDeps, request: Request, h: ResponseToolkit) => ReturnType<Lifecycle.Method>;

function pageRoute(summary: string, handler: PageHandler): RouteSpec {
  return {
    tags: [],
    summary,
    hidden: true,
    responses: { 200: { description: 'The page', contentType: 'text/html' } },
    handler: (deps) => (request, h) => handler(deps, request, h),
  };
}

/**
 * return_to of an interaction page: null when absent; a page refuses an
 * unsafe one (docs/oidc.md, "The contract at a glance": never an open redirect) before any script could follow it.
 */
function returnToOf(deps: HttpDeps, request: Request): { ok: true; value: string | null } | { ok: false } {
  const value = request.query.return_to;
  if (value === undefined) return { ok: true, value: null };
  return isSafeReturnTo(value, deps.config.forwardAuth.apps) ? { ok: true, value } : { ok: false };
}

function invalidLinkPage(context: PageContext, h: ResponseToolkit) {
  const t = context.text.pages.errorPages;
  return pageResponse(h, renderErrorPage(context, { title: t.invalidLinkTitle, message: t.invalidLinkMessage }), 400);
}

/** The application of the authorization request behind return_to, or null (none, or no longer a valid one). */
/** An interaction page without a session: the browser signs in first and comes back to return_to. */
function signInFirst(context: PageContext, h: ResponseToolkit, returnTo: string | null) {
  return h
    .redirect(pageHref(context, '/login', { return_to: returnTo }))
    .code(302)
    .header('cache-control', 'no-store');
}

/** Nothing left for the page to ask: straight back to the authorization request. */
function goBack(h: ResponseToolkit, returnTo: string) {
  return h.redirect(returnTo).code(302).header('cache-control', 'no-store');
}

async function clientNameOf(deps: HttpDeps, returnTo: string | null): Promise<string | null> {
  if (returnTo === null) return null;
  try {
    return (await deps.protocol.consent.describe(returnTo, null)).clientName;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

export const homePageRoute = pageRoute('The start page', (deps, request, h) => {
  const session = readSession(request);
  return pageResponse(h, renderHomePage(pageContextOf(deps, request), { email: session?.user.email ?? null }));
});

/** The sign-in page; `/select-account` (docs/ui.md, "Which pages") is the same page offering the remembered accounts first. */
const signInPage = (selectAccount: boolean) =>
  pageRoute('Sign in', async (deps, request, h) => {
    const context = pageContextOf(deps, request);
    const returnTo = returnToOf(deps, request);
    if (!returnTo.ok) return invalidLinkPage(context, h);
    const page = {
      clientName: await clientNameOf(deps, returnTo.value),
      returnTo: returnTo.value,
      loginHint: stringParam(request.query.login_hint),
      selectAccount: selectAccount || request.query.select_account === 'true',
      errorCode: stringParam(request.query.error),
      providers: await deps.federation.upstream.listProviders(),
      errorProvider: stringParam(request.query.provider),
    };
    return pageResponse(h, renderLoginPage(context, page));
  });

export const loginPageRoute = signInPage(false);
export const selectAccountPageRoute = signInPage(true);

export const registerPageRoute = pageRoute('Create an account', async (deps, request, h) => {
  const context = pageContextOf(deps, request);
  const returnTo = returnToOf(deps, request);
  if (!returnTo.ok) return invalidLinkPage(context, h);
  const page = renderRegisterPage(context, {
    clientName: await clientNameOf(deps, returnTo.value),
    returnTo: returnTo.value,
  });
  return pageResponse(h, page.html, page.status);
});

export const verifyEmailPageRoute = pageRoute('Confirm an e-mail address', (deps, request, h) =>
  pageResponse(
    h,
    renderVerifyEmailPage(pageContextOf(deps, request), { hasToken: Boolean(stringParam(request.query.token)) }),
  ),
);

export const forgotPasswordPageRoute = pageRoute('Ask for a password reset link', (deps, request, h) => {
  const page = renderForgotPasswordPage(pageContextOf(deps, request));
  return pageResponse(h, page.html, page.status);
});

export const resetPasswordPageRoute = pageRoute('Choose a new password', async (deps, request, h) => {
  const token = stringParam(request.query.token);
  const link = !token ? 'missing' : (await deps.accounts.passwordReset.usable(token)) ? 'usable' : 'unusable';
  return pageResponse(h, renderResetPasswordPage(pageContextOf(deps, request), { link }));
});

/** Without a session the account page is a sign-in that comes back here. */
export const accountPageRoute = pageRoute('The signed-in account', (deps, request, h) => {
  const context = pageContextOf(deps, request);
  const session = readSession(request);
  if (!session)
    return h
      .redirect(pageHref(context, '/login', { return_to: '/account' }))
      .code(302)
      .header('cache-control', 'no-store');
  const { user } = session;
  return pageResponse(
    h,
    renderAccountPage(context, {
      email: user.email,
      managedBy: user.managedBy,
      hasPassword: user.passwordHash !== null,
    }),
  );
});

/**
 * The consent step's page: what the authorization request behind return_to
 * asks for (src/interaction, ConsentService). Without a session the
 * browser signs in first and comes back through the authorization request.
 */
export const consentPageRoute = pageRoute('Allow or deny an application', async (deps, request, h) => {
  const context = pageContextOf(deps, request);
  const returnTo = returnToOf(deps, request);
  if (!returnTo.ok) return invalidLinkPage(context, h);
  if (returnTo.value === null) return pageResponse(h, renderConsentErrorPage(context, 'INVALID_RETURN_TO'), 400);
  const session = readSession(request);
  if (!session) return signInFirst(context, h, returnTo.value);
  try {
    const prompt = await deps.protocol.consent.describe(returnTo.value, { sub: session.user.sub });
    const scopes = prompt.scopes.map((entry) => entry.scope);
    const page = {
      clientName: prompt.clientName,
      redirectUri: prompt.redirectUri,
      scopes,
      groups: prompt.groups?.map((group) => group.name) ?? null,
      alreadyGranted: prompt.alreadyGranted,
      email: session.user.email,
      returnTo: returnTo.value,
    };
    return pageResponse(h, renderConsentPage(context, page));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return pageResponse(h, renderConsentErrorPage(context, error.code), error.status);
  }
});

/**
 * The second step of a sign-in (docs/http-api.md, "Second factors"): the cookie's pending
 * session, resolved here (no other page accepts one). Without a session
 * the browser signs in first; with a finished one it goes on to return_to,
 * unless `step_up=true` asks it to offer the step-up a client requires
 * (clientSecondFactor) to a session without a second factor.
 */
export const secondFactorPageRoute = pageRoute('Confirm a sign-in with a second factor', async (deps, request, h) => {
  const sessionId = readSessionCookieId(request);
  const active = sessionId ? await deps.accounts.sessions.resolve(sessionId, { allowPending: true }) : null;
  const context = pageContextOf(deps, request, { user: active?.user ?? null });
  const returnTo = returnToOf(deps, request);
  if (!returnTo.ok) return invalidLinkPage(context, h);
  if (!active) return signInFirst(context, h, returnTo.value);
  const { session, user } = active;
  const offerStepUp = !session.secondFactorPending && request.query.step_up === 'true' && !hasSecondFactor(session.amr);
  if (!session.secondFactorPending && !offerStepUp)
    return h
      .redirect(returnTo.value ?? '/')
      .code(302)
      .header('cache-control', 'no-store');
  // Offered: what the step-up will ask, so that the page can say it before the user starts it.
  const asked = offerStepUp ? { ...session, secondFactorRequired: true } : session;
  const awaited = await deps.interaction.signIn.awaitedFactors({ session: asked, user });
  const stepUp = asked.secondFactorRequired
    ? { client: await clientNameOf(deps, returnTo.value), started: !offerStepUp }
    : null;
  return pageResponse(
    h,
    renderSecondFactorPage(context, { email: user.email, ...awaited, returnTo: returnTo.value, stepUp }),
  );
});

/**
 * The QR code of the caller's authenticator-app enrolment that waits for
 * its first code (POST /api/user/totp started it), drawn by this server as
 * SVG: the secret never leaves for another service, and never travels in
 * an address. The pages show it as an image; 404 when nothing waits.
 */
export const authenticatorAppQrRoute: RouteSpec = {
  tags: [],
  summary: 'The QR code of the pending authenticator-app enrolment',
  hidden: true,
  responses: { 200: { description: 'SVG', contentType: 'image/svg+xml' } },
  handler: (deps) => async (request, h) => {
    const { user } = sessionOf(request);
    const uri = await deps.accounts.totp.pendingUri(user);
    if (uri === null)
      throw new ApiError(
        404,
        'TOTP_NOT_PENDING',
        'No authenticator app is waiting for confirmation: start with POST /api/user/totp.',
      );
    return h
      .response(await qrCodeSvg(uri))
      .type('image/svg+xml')
      .header('cache-control', 'no-store');
  },
};

/**
 * @simplewebauthn/browser's ES modules for the pages' passkey scripts, from
 * the installed package (src/web/webauthn-browser-modules.ts): the pages
 * load scripts from this origin only. A path that is not one of its files is 404.
 */
export const webAuthnBrowserRoute: RouteSpec = {
  tags: [],
  summary: 'The @simplewebauthn/browser modules of the built-in pages',
  hidden: true,
  responses: { 200: { description: 'JavaScript', contentType: 'text/javascript' } },
  handler: () => {
    const modules = loadWebAuthnBrowserModules();
    return (request, h) => {
      const source = modules.get((request.params as { path?: string }).path ?? '');
      if (source === undefined) throw new ApiError(404, 'NOT_FOUND', 'The requested resource was not found.');
      return h.response(source).type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400');
    };
  },
};

/**
 * The terms step's page: the terms the signed-in user has not accepted at
 * their current version (src/accounts, UserTerms). Without a session the
 * browser signs in first; with nothing left to accept it goes straight back
 * to the authorization request.
 */
export const termsPageRoute = pageRoute('Accept the terms of service', async (deps, request, h) => {
  const context = pageContextOf(deps, request);
  const returnTo = returnToOf(deps, request);
  if (!returnTo.ok) return invalidLinkPage(context, h);
  // Opened without a request (a bookmark, a link typed by hand): nothing leads elsewhere, it just has nothing to ask.
  if (returnTo.value === null) return pageResponse(h, renderTermsErrorPage(context), 400);
  const session = readSession(request);
  if (!session) return signInFirst(context, h, returnTo.value);
  const outstanding = await deps.accounts.userTerms.outstanding(session.user.sub);
  if (outstanding.required.length === 0 && outstanding.implicit.length === 0) return goBack(h, returnTo.value);
  const page = { clientName: await clientNameOf(deps, returnTo.value), returnTo: returnTo.value, ...outstanding };
  return pageResponse(h, renderTermsPage(context, page));
});

/**
 * The access step's page: the signed-in user may not use the client of the
 * authorization request behind return_to (src/interaction, AccessDenial).
 * Without a session the browser signs in first; a user who may use it now
 * (a membership added since) goes straight back to the request.
 */
export const accessDeniedPageRoute = pageRoute('No access to an application', async (deps, request, h) => {
  const context = pageContextOf(deps, request);
  const returnTo = returnToOf(deps, request);
  if (!returnTo.ok) return invalidLinkPage(context, h);
  if (returnTo.value === null) return pageResponse(h, renderAccessDeniedErrorPage(context), 400);
  const session = readSession(request);
  if (!session) return signInFirst(context, h, returnTo.value);
  const denial = await deps.protocol.accessDenial.describe(returnTo.value, session.user);
  if (denial === null) return pageResponse(h, renderAccessDeniedErrorPage(context), 400);
  if (denial.allowed) return goBack(h, returnTo.value);
  const page = {
    email: session.user.email,
    clientName: denial.clientName,
    returnTo: returnTo.value,
    backTo: denial.backTo,
  };
  return pageResponse(h, renderAccessDeniedPage(context, page));
});

/**
 * A page's script as the build bundled it (src/web/ui-bundles.ts): one
 * file from this origin, as the page policy wants. Revalidated rather than
 * cached for long: an upgrade replaces it under the same name.
 */
export const uiBundleRoute: RouteSpec = {
  tags: [],
  summary: 'A bundled script of the built-in pages',
  hidden: true,
  responses: { 200: { description: 'JavaScript', contentType: 'text/javascript' } },
  handler: (deps) => (request, h) => {
    const source = deps.web.uiBundles.get((request.params as { file?: string }).file ?? '');
    if (source === undefined) throw new ApiError(404, 'NOT_FOUND', 'The requested resource was not found.');
    return h.response(source).type('text/javascript; charset=utf-8').header('cache-control', 'no-cache');
  },
};

/** branding.primary_color as CSS (src/web/pages/theme-stylesheet.ts); its address changes with the colour. */
export const faviconRoute: RouteSpec = {
  tags: [],
  summary: 'The icon browsers ask for on every page',
  hidden: true,
  responses: { 200: { description: 'SVG', contentType: 'image/svg+xml' } },
  handler: (deps) => (_request, h) =>
    h
      .response(renderFavicon(deps.config.branding.primaryColor))
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400'),
};

export const themeStylesheetRoute: RouteSpec = {
  tags: [],
  summary: 'The accent colours of the built-in pages',
  hidden: true,
  responses: { 200: { description: 'CSS', contentType: 'text/css' } },
  handler: (deps) => (_request, h) =>
    h
      .response(renderThemeStylesheet(deps.config.branding.primaryColor))
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=86400'),
};
