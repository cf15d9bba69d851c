import Joi from 'joi';
import { addressOf } from '../client-address.js';
import type { Request, ResponseToolkit } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import type { HttpDeps } from '../http-deps.js';
import { clearSessionCookie, readSession, testSession, type SessionCredentials } from '../auth/cookie-session-auth.js';
import { endSession } from '../../oidc/end-session/index.js';
import { OAuthError } from '../../oidc/errors.js';
import { pageHref, renderErrorPage, renderSignedOutPage, renderSignOutPage } from '../../web/index.js';
import { errorResponse } from '../schemas/error-schema.js';
import { pageContextOf } from '../page-context.js';
import { payloadOf } from '../payload-of.js';

/**
 * GET and POST /oauth2/logout (OpenID Connect RP-Initiated Logout 1.0), and
 * POST /oauth2/logout/confirm, where the question "Sign out of NAME?" posts
 * its answer. A browser endpoint: errors are pages, never redirects to an
 * unverified URI.
 */
const params = Joi.object({
  id_token_hint: Joi.string().description('An ID token this provider issued to the client (may be expired)'),
  post_logout_redirect_uri: Joi.string().description(
    "Exactly one of the client's registered post_logout_redirect_uris",
  ),
  client_id: Joi.string().description('The client, when there is no id_token_hint'),
  state: Joi.string().description('Returned unchanged on the redirect'),
  ui_locales: Joi.string(),
})
  .unknown(true)
  .label('EndSessionRequest');

type EndSessionInput = Record<string, string | undefined>;

/** The parameters the question posts back, as they came. */
const carriedParams = ['id_token_hint', 'post_logout_redirect_uri', 'client_id', 'state'] as const;

const confirmPath = '/oauth2/logout/confirm';

function page(h: ResponseToolkit, status: number, html: string) {
  return h.response(html).code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store');
}

async function handle(
  deps: HttpDeps,
  request: Request,
  h: ResponseToolkit,
  input: EndSessionInput,
  session: SessionCredentials | null,
  confirmed: boolean,
) {
  // Only a GET can be loaded again in another language; the answers of a form post cannot.
  const context = pageContextOf(deps, request, { user: session?.user ?? null, reloadable: request.method === 'get' });
  try {
    const outcome = await endSession(
      {
        idTokenHint: input.id_token_hint,
        postLogoutRedirectUri: input.post_logout_redirect_uri,
        clientId: input.client_id,
        state: input.state,
        session: session && { sub: session.user.sub, authTime: session.authTime, sid: session.session.publicId },
        confirmed,
      },
      deps.protocol.engine,
    );
    if (outcome.kind === 'confirm') {
      if (!session) throw new Error('end_session asked for a confirmation without a session');
      const fields: Record<string, string> = {};
      for (const name of carriedParams) if (input[name] !== undefined) fields[name] = input[name];
      const cancelHref = deps.config.frontend.enabled ? '/' : null;
      return page(
        h,
        200,
        renderSignOutPage(context, {
          email: session.user.email,
          action: confirmPath,
          fields,
          cancelHref,
          clientName: outcome.clientName,
        }),
      );
    }
    if (outcome.endSession && session) {
      await deps.accounts.signOut(
        { idHash: session.session.idHash, sub: session.user.sub },
        { clientAddress: addressOf(request), clientId: input.client_id ?? null },
      );
      clearSessionCookie(h);
    }
    // The question's answer moves on from a page instead (renderSignedOutPage says why).
    if (outcome.kind === 'redirect' && !confirmed)
      return h.redirect(outcome.location).code(302).header('cache-control', 'no-store');
    const continueTo = outcome.kind === 'redirect' ? outcome.location : null;
    const signInHref = deps.config.frontend.enabled ? pageHref(context, '/login') : null;
    return page(h, 200, renderSignedOutPage(context, { signedOut: outcome.endSession, continueTo, signInHref }));
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const t = context.text.pages.errorPages;
    return page(
      h,
      400,
      renderErrorPage(context, {
        title: t.signOutRejectedTitle,
        message: t.signOutRejectedMessage,
        detail: `${error.error}: ${error.description}`,
      }),
    );
  }
}

const responses = {
  200: {
    description: 'The question "Sign out of NAME?" (a form posting to /oauth2/logout/confirm), or the signed-out page',
    contentType: 'text/html',
  },
  302: { description: 'To the registered post_logout_redirect_uri, with state' },
  400: {
    description: 'Invalid id_token_hint or unregistered post_logout_redirect_uri: an HTML page',
    contentType: 'text/html',
  },
};

const description =
  'Ends the browser session at once only for an id_token_hint of the signed-in user and sign-in; otherwise (no hint, or a hint of another session) ' +
  'it asks the user first (RP-Initiated Logout 1.0 §2), and only the answer posted to /oauth2/logout/confirm ends the session.';

export const endSessionGetRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'End session (RP-initiated logout)',
  description,
  validate: { query: params },
  responses,
  handler: (deps) => async (request, h) =>
    handle(deps, request, h, request.query as EndSessionInput, await testSession(request), false),
};

export const endSessionPostRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'End session (RP-initiated logout, form post)',
  description,
  validate: { payload: params },
  responses,
  hapiOptions: { payload: { allow: 'application/x-www-form-urlencoded' } },
  handler: (deps) => async (request, h) =>
    handle(deps, request, h, payloadOf(request) as EndSessionInput, await testSession(request), false),
};

/**
 * The answer "Sign out": the Origin rule (docs/http-api.md, "Origin rule") refuses it from any
 * other origin with 403 ORIGIN_NOT_ALLOWED, with or without a session
 * (and the session cookie, SameSite=Lax, is not even sent on a cross-site
 * POST). Not a protocol route: only our page calls it.
 */
export const endSessionConfirmRoute: RouteSpec = {
  checkOrigin: true,
  tags: ['OpenID'],
  summary: 'Confirm the end of the session (the answer of the sign-out page)',
  validate: { payload: params },
  responses: {
    200: {
      description:
        'The signed-out page; with a post_logout_redirect_uri it moves on there at once (meta refresh, and a link)',
      contentType: 'text/html',
    },
    400: errorResponse(
      'VALIDATION_ERROR: malformed parameters (an invalid id_token_hint or unregistered post_logout_redirect_uri answers the HTML page of /oauth2/logout instead)',
    ),
    403: errorResponse('ORIGIN_NOT_ALLOWED: the request came from another origin'),
  },
  hapiOptions: { payload: { allow: 'application/x-www-form-urlencoded' } },
  handler: (deps) => (request, h) =>
    handle(deps, request, h, payloadOf(request) as EndSessionInput, readSession(request), true),
};
