import Joi from 'joi';
import type { Request, ResponseToolkit } from '@hapi/hapi';
import { ApiError } from '../../api-error.js';
import { isSafeReturnTo } from '../../interaction/index.js';
import { providerPaths, type FederationAnswer, type FederationSession } from '../../federation/index.js';
import type { RouteSpec } from '../route-definition.js';
import type { HttpDeps } from '../http-deps.js';
import { readSession, setSessionCookie } from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';
import { payloadOf } from '../payload-of.js';

/**
 * Sign-in through upstream identity providers (docs/http-api.md, "Upstream identity providers";
 * src/federation says how the flow runs). The browser navigates through
 * these routes, so apart from a bad request they answer with redirects: to
 * the upstream, back to return_to, or to /login?error=CODE.
 *
 * Two cookies of their own, both HttpOnly and only sent to these paths: the
 * browser binding (a random value whose hash each state records, so a state
 * works only in the browser that started it) and a pending link (sealed).
 */
const bindingCookie = 'upstream_binding';
const pendingLinkCookie = 'upstream_link';
const cookiePath = '/api/auth/providers';

function cookieOptions(deps: HttpDeps, ttlMs: number) {
  return {
    encoding: 'none' as const,
    isHttpOnly: true,
    // Lax: the upstream brings the browser back with a top-level GET (Apple's form_post is turned into one, below).
    isSameSite: 'Lax' as const,
    isSecure: new URL(deps.config.server.baseUrl).protocol === 'https:',
    path: cookiePath,
    ttl: ttlMs,
  };
}

function readCookie(request: Request, name: string): string | null {
  const value = request.state[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

function federationSession(request: Request): FederationSession | null {
  const current = readSession(request);
  return current ? { sub: current.user.sub, email: current.user.email } : null;
}

/** The answer as a redirect, with the cookies it changes. */
function redirect(h: ResponseToolkit, deps: HttpDeps, answer: FederationAnswer) {
  if (answer.sessionId !== undefined) setSessionCookie(h, answer.sessionId);
  if (answer.binding !== undefined) h.state(bindingCookie, answer.binding, cookieOptions(deps, 24 * 60 * 60 * 1000));
  if (answer.pendingLink === null) h.unstate(pendingLinkCookie, { path: cookiePath });
  else if (answer.pendingLink !== undefined)
    h.state(pendingLinkCookie, answer.pendingLink, cookieOptions(deps, 10 * 60 * 1000));
  return h.redirect(answer.location).code(302).header('cache-control', 'no-store');
}

const providerId = Joi.object({ id: Joi.string().min(1).max(255).required().description('identity_providers[].id') });
const returnToParam = Joi.string()
  .max(8192)
  .description('Same-origin path to go back to afterwards (an authorization request, /account); default /');

/** A declared forward_auth app's URL too: an upstream sign-in started on the way to an app goes back to it. */
function returnToOf(deps: HttpDeps, value: unknown): string {
  if (value === undefined) return '/';
  if (!isSafeReturnTo(value, deps.config.forwardAuth.apps))
    throw new ApiError(400, 'INVALID_RETURN_TO', 'The return_to parameter must be a path on this server.');
  return value;
}

const providerSchema = Joi.object({
  id: Joi.string().required(),
  type: Joi.string().valid('github', 'google', 'apple', 'generic_oauth').required(),
  display_name: Joi.string().required().description('The button label'),
  icon_url: Joi.string().allow(null).required(),
}).label('IdentityProvider');

export const providersListRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'Upstream identity providers to sign in with',
  description: 'The enabled providers of the config, for the sign-in buttons of a login page.',
  responses: {
    200: {
      description: 'Enabled providers, ordered by id',
      schema: Joi.object({ providers: Joi.array().items(providerSchema).required() }).label('IdentityProviderList'),
    },
  },
  handler: (deps) => async () => ({
    providers: (await deps.federation.upstream.listProviders()).map((p) => ({
      id: p.id,
      type: p.type,
      display_name: p.displayName,
      icon_url: p.iconUrl,
    })),
  }),
};

export const providerAuthorizeRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'Start signing in (or linking) with an upstream provider',
  description:
    'Redirects to the upstream with a `state` bound to this browser and good once, PKCE S256, and a nonce for OpenID upstreams. `intent=link` connects the upstream account to the signed-in user (without a session the browser signs in first). See docs/http-api.md.',
  validate: {
    params: providerId,
    query: Joi.object({
      return_to: returnToParam,
      intent: Joi.string().valid('login', 'link').default('login').description('login (default) or link'),
    }),
  },
  responses: {
    302: { description: "To the upstream's authorization endpoint (or, for intent=link without a session, to /login)" },
    ...commonErrors,
    400: errorResponse(
      'VALIDATION_ERROR, or INVALID_RETURN_TO: The return_to parameter must be a path on this server.',
    ),
    404: errorResponse('PROVIDER_NOT_FOUND: The sign-in provider is unknown or not enabled.'),
  },
  handler: (deps) => async (request, h) => {
    const query = request.query as { return_to?: string; intent: 'login' | 'link' };
    const answer = await deps.federation.upstream.begin({
      providerId: (request.params as { id: string }).id,
      intent: query.intent,
      returnTo: returnToOf(deps, query.return_to),
      binding: readCookie(request, bindingCookie),
      session: federationSession(request),
    });
    return redirect(h, deps, answer);
  },
};

/** What an upstream sends back (RFC 6749 §4.1.2 and §4.1.2.1; RFC 9207 iss; Apple adds `user` on form_post). */
const callbackParams = Joi.object({
  code: Joi.string().max(4096),
  state: Joi.string().max(512),
  error: Joi.string().max(512),
  error_description: Joi.string().allow('').max(4096),
})
  .unknown(true)
  .label('UpstreamCallback');

export const providerCallbackGetRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'Where the upstream sends the browser back',
  description:
    'Redeems the state (only in the browser holding its binding cookie: a callback without it spends nothing), trades the code for the upstream identity (a verified ID token, or the userinfo and e-mail endpoints), then signs in, creates the account (when registration allows and the upstream asserts the address verified), links, or asks to link. Always a redirect: to return_to, or to /login?error=CODE (UPSTREAM_ERROR, INVALID_STATE, PROVIDER_NOT_FOUND, REGISTRATION_DISABLED, EMAIL_NOT_ALLOWED, EMAIL_NOT_VERIFIED, UPSTREAM_EMAIL_MISSING, LINK_REQUIRED, CONNECTION_IN_USE, ALREADY_CONNECTED, ACCOUNT_DELETED).',
  validate: { params: providerId, query: callbackParams },
  responses: {
    302: { description: 'To return_to (signed in or linked), /login/second-factor, or /login?error=CODE' },
  },
  handler: (deps) => async (request, h) => {
    const query = request.query as { code?: string; state?: string; error?: string };
    const answer = await deps.federation.upstream.finish({
      providerId: (request.params as { id: string }).id,
      params: { code: query.code, state: query.state, error: query.error },
      binding: readCookie(request, bindingCookie),
      session: federationSession(request),
      context: { clientAddress: addressOf(request) },
    });
    return redirect(h, deps, answer);
  },
};

export const providerCallbackPostRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'Where the upstream posts its answer (response_mode=form_post, Sign in with Apple)',
  description:
    'A cross-site POST carries no SameSite=Lax cookie, so the answer is handed on to the GET callback by a 303 redirect, a top-level GET that does carry them.',
  validate: { params: providerId, payload: callbackParams },
  responses: { 303: { description: 'To the GET callback with the same code, state and error' } },
  hapiOptions: { payload: { allow: 'application/x-www-form-urlencoded' } },
  handler: () => (request, h) => {
    const body = payloadOf(request) as Record<string, unknown>;
    const forwarded = new URLSearchParams();
    for (const name of ['code', 'state', 'error', 'error_description']) {
      if (typeof body[name] === 'string') forwarded.set(name, body[name]);
    }
    const target = `${providerPaths.callback((request.params as { id: string }).id)}?${forwarded.toString()}`;
    return h.redirect(target).code(303).header('cache-control', 'no-store');
  },
};

export const providerLinkRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'Complete a pending link after signing in',
  description:
    "After LINK_REQUIRED the login page's return_to points here: signed in to the account holding the upstream's address, the upstream account waiting in this browser is linked to it, and the browser goes on to return_to. Signed in as someone else (or not at all), it goes back to /login?error=LINK_REQUIRED.",
  validate: { params: providerId, query: Joi.object({ return_to: returnToParam }) },
  responses: {
    302: { description: 'To return_to once linked, or to /login?error=CODE' },
    ...commonErrors,
    400: errorResponse(
      'VALIDATION_ERROR, or INVALID_RETURN_TO: The return_to parameter must be a path on this server.',
    ),
  },
  handler: (deps) => async (request, h) => {
    const answer = await deps.federation.upstream.completeLink({
      providerId: (request.params as { id: string }).id,
      returnTo: returnToOf(deps, (request.query as { return_to?: string }).return_to),
      pendingLink: readCookie(request, pendingLinkCookie),
      session: federationSession(request),
      context: { clientAddress: addressOf(request) },
    });
    return redirect(h, deps, answer);
  },
};
