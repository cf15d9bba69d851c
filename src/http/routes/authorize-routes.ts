import Joi from 'joi';
import type { Request, ResponseToolkit } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import type { HttpDeps } from '../http-deps.js';
import { readSessionCookieId, testSession } from '../auth/cookie-session-auth.js';
import { rememberedAccountsCookie } from '../../interaction/index.js';
import { setRememberedAccountsCookie } from './account-routes.js';
import {
  authorize,
  type AuthorizeOutcome,
  type AuthorizeSession,
  type RawAuthorizationParams,
} from '../../oidc/authorize/index.js';
import { renderErrorPage, renderFormPostPage } from '../../web/index.js';
import { pageContextOf, pageResponse } from '../page-context.js';
import { payloadOf } from '../payload-of.js';

/**
 * GET and POST /oauth2/authorize (RFC 6749 §3.1, OIDC Core §3.1.2.1). The
 * engine in src/oidc/authorize decides; this adapter reads the optional
 * session and renders the outcome: an HTML error page, a 302 or a
 * self-posting form to the client, or a 302 to /login or /consent.
 * Every parameter is accepted as a string or a repeated list here, so that
 * even malformed requests reach the engine, which knows where their error
 * may be sent (never to an unverified redirect URI).
 */
const value = Joi.alternatives(Joi.string().allow(''), Joi.array().items(Joi.string().allow('')));
const describe = (text: string) => value.description(text);

const authorizationParams = Joi.object({
  response_type: describe('Must be `code`'),
  client_id: describe('The registered client'),
  redirect_uri: describe("Exactly one of the client's registered redirect URIs"),
  scope: describe('Space-separated; must include `openid`; scopes the client may not have are dropped'),
  state: describe('Returned unchanged to the client'),
  nonce: describe('Copied into the ID token'),
  code_challenge: describe('RFC 7636 S256 challenge; required for public clients and clients with require_pkce'),
  code_challenge_method: describe('Must be `S256`'),
  response_mode: describe('`query` (default) or `form_post`'),
  prompt: describe('Space-separated: none, login, consent, select_account'),
  max_age: describe('Maximum age of the sign-in, in seconds'),
  login_hint: describe('E-mail to prefill on the sign-in page'),
  acr_values: describe('Space-separated; `aal2` without `aal1` asks a sign-in with a second factor'),
  claims: describe(
    'OIDC Core §5.5 JSON: user claims to release in the ID token or at userinfo; an essential `acr` for `aal2` acts as acr_values',
  ),
})
  .unknown(true)
  .label('AuthorizationRequest');

const responses = {
  200: {
    description: 'response_mode=form_post: an HTML form that posts the response to the client',
    contentType: 'text/html',
  },
  302: {
    description:
      'To the client with `code`, `state`, `iss` (or `error`, `error_description`, `state`, `iss`), or to /login or /consent',
  },
  400: {
    description: 'Unknown client or unregistered redirect URI: an HTML error page, never a redirect',
    contentType: 'text/html',
  },
};

const description =
  'Authorization code flow with PKCE (RFC 6749 §4.1, RFC 7636, OIDC Core §3.1.2). See docs/oidc.md for scope filtering and prompt handling.';

export const authorizeGetRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'Authorization endpoint',
  description,
  validate: { query: authorizationParams },
  responses,
  handler: (deps) => async (request, h) => handleAuthorize(deps, request, h, request.query as RawAuthorizationParams),
};

export const authorizePostRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'Authorization endpoint (form post)',
  description: `${description} The parameters come as an application/x-www-form-urlencoded body (OIDC Core §3.1.2.1).`,
  validate: { payload: authorizationParams },
  responses,
  hapiOptions: { payload: { allow: 'application/x-www-form-urlencoded' } },
  handler: (deps) => async (request, h) =>
    handleAuthorize(deps, request, h, payloadOf(request) as RawAuthorizationParams),
};

async function handleAuthorize(deps: HttpDeps, request: Request, h: ResponseToolkit, params: RawAuthorizationParams) {
  const session = await optionalSession(request);
  const outcome = await authorize({ params, session }, deps.protocol.authorize);
  const sessionId = readSessionCookieId(request);
  // The account chooser of prompt=select_account offers the sessions seen here.
  if (session && sessionId) {
    const cookie = request.state[rememberedAccountsCookie];
    setRememberedAccountsCookie(
      h,
      deps,
      deps.interaction.rememberedAccounts.remember(typeof cookie === 'string' ? cookie : undefined, sessionId),
    );
  }
  return render(outcome, deps, request, h);
}

/**
 * The session when the cookie holds one. Resolved here rather than by the
 * route's auth mode: a top-level authorization request is not a CSRF target
 * (it ends at the registered client or at an interaction page), so the
 * Origin rule for cookie-authenticated POSTs does not apply to it. The
 * device verification (a navigation too) reads the session the same way.
 */
export async function optionalSession(request: Request): Promise<AuthorizeSession | null> {
  const session = await testSession(request);
  if (!session) return null;
  return {
    sub: session.user.sub,
    authTime: session.authTime,
    amr: session.session.amr,
    sessionId: session.session.idHash,
    sid: session.session.publicId,
    user: session.user,
  };
}

function render(outcome: AuthorizeOutcome, deps: HttpDeps, request: Request, h: ResponseToolkit) {
  switch (outcome.kind) {
    case 'error_page': {
      const context = pageContextOf(deps, request, { reloadable: request.method === 'get' });
      const t = context.text.pages.errorPages;
      const page = renderErrorPage(context, {
        title: t.signInRejectedTitle,
        message: t.signInRejectedMessage,
        detail: `${outcome.error.error}: ${outcome.error.description}`,
      });
      return pageResponse(h, page, outcome.error.status);
    }
    case 'client_response': {
      const { target, params } = outcome;
      if (target.responseMode === 'form_post') {
        const page = renderFormPostPage(target.redirectUri, params);
        return h
          .response(page.html)
          .type('text/html; charset=utf-8')
          .header('content-security-policy', page.contentSecurityPolicy)
          .header('cache-control', 'no-store');
      }
      const location = new URL(target.redirectUri);
      for (const [name, v] of Object.entries(params)) location.searchParams.append(name, v);
      return h.redirect(location.href).code(302).header('cache-control', 'no-store');
    }
    case 'interaction':
      return h.redirect(outcome.location).code(302).header('cache-control', 'no-store');
  }
}
