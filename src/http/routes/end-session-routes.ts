import Joi from 'joi';
import type { Request, ResponseToolkit } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import type { HttpDeps } from '../http-deps.js';
import { clearSessionCookie, sessionStrategy, type SessionCredentials } from '../auth/cookie-session-auth.js';
import { endSession } from '../../oidc/end-session/index.js';
import { OAuthError } from '../../oidc/errors.js';
import { renderErrorPage } from '../../web/index.js';

/**
 * GET and POST /oauth2/logout (OpenID Connect RP-Initiated Logout 1.0).
 * A browser endpoint: errors are pages, never redirects to an unverified URI.
 */
const params = Joi.object({
  id_token_hint: Joi.string().description('An ID token this provider issued to the client (may be expired)'),
  post_logout_redirect_uri: Joi.string().description('Exactly one of the client\'s registered post_logout_redirect_uris'),
  client_id: Joi.string().description('The client, when there is no id_token_hint'),
  state: Joi.string().description('Returned unchanged on the redirect'),
  ui_locales: Joi.string(),
})
  .unknown(true)
  .label('EndSessionRequest');

async function signedIn(request: Request): Promise<SessionCredentials | null> {
  try {
    return (await request.server.auth.test(sessionStrategy, request)).credentials as unknown as SessionCredentials;
  } catch {
    return null;
  }
}

function page(h: ResponseToolkit, deps: HttpDeps, status: number, title: string, message: string) {
  const html = renderErrorPage({ brandingName: deps.config.branding.name, title, message });
  return h.response(html).code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store');
}

async function handle(deps: HttpDeps, request: Request, h: ResponseToolkit, input: Record<string, string | undefined>) {
  const session = await signedIn(request);
  try {
    const outcome = await endSession(
      {
        idTokenHint: input.id_token_hint,
        postLogoutRedirectUri: input.post_logout_redirect_uri,
        clientId: input.client_id,
        state: input.state,
        sessionSub: session?.user.sub ?? null,
      },
      deps.provider,
    );
    if (outcome.endSession && session) {
      await deps.sessions.revoke(session.session.idHash);
      clearSessionCookie(h);
    }
    if (outcome.kind === 'redirect') return h.redirect(outcome.location).code(302).header('cache-control', 'no-store');
    return page(h, deps, 200, 'Signed out', outcome.endSession ? 'You have been signed out.' : 'You are not signed in.');
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return page(h, deps, 400, 'Sign-out request rejected', error.description);
  }
}

const responses = {
  200: { description: 'The signed-out page', contentType: 'text/html' },
  302: { description: 'To the registered post_logout_redirect_uri, with state' },
  400: { description: 'Invalid id_token_hint or unregistered post_logout_redirect_uri: an HTML page', contentType: 'text/html' },
};

export const endSessionGetRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'End session (RP-initiated logout)',
  validate: { query: params },
  responses,
  handler: (deps) => (request, h) => handle(deps, request, h, request.query as Record<string, string | undefined>),
};

export const endSessionPostRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'End session (RP-initiated logout, form post)',
  validate: { payload: params },
  responses,
  hapiOptions: { payload: { allow: 'application/x-www-form-urlencoded' } },
  handler: (deps) => (request, h) => handle(deps, request, h, (request.payload ?? {}) as Record<string, string | undefined>),
};
