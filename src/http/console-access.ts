import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Lifecycle, Request, ResponseToolkit } from '@hapi/hapi';
import type { UserRecord } from '../model/index.js';
import type { HttpDeps } from './http-deps.js';
import type { RouteSpec } from './route-definition.js';
import { readSession, type SessionCredentials } from './auth/cookie-session-auth.js';
import { pageContextOf, pageResponse } from './page-context.js';
import { pageHref, renderConsoleForbiddenPage, type ConsoleRequest, type PageContext } from '../web/index.js';

/** What a console handler gets: the page context, the signed-in admin, and the token its forms carry. */
export interface ConsoleCall {
  context: PageContext;
  admin: UserRecord;
  console: ConsoleRequest;
}

type ConsoleHandler = (
  deps: HttpDeps,
  request: Request,
  h: ResponseToolkit,
  call: ConsoleCall,
) => ReturnType<Lifecycle.Method>;

/**
 * The form token of a session: an HMAC of its stored id hash under the
 * cookie's key. A page of another origin cannot read it (it is in our HTML
 * only), so a form it makes a browser post is refused even where the Origin
 * rule cannot see an Origin header. It needs no storage, and a new session
 * (signing in again) makes the old pages' forms stale.
 */
export function consoleFormToken(cookiePassword: string, session: SessionCredentials['session']): string {
  return createHmac('sha256', cookiePassword).update(`admin console form\0${session.idHash}`).digest('base64url');
}

function tokenMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A route of the admin console (docs/ui.md, "Admin console"), served with
 * the auth mode `optional-session` so that the handler, not hapi, answers
 * who may not: without a signed-in session the sign-in page, coming back
 * here (return_to); a signed-in non-admin a 403 page. For a POST the
 * Origin rule has already run (onPostAuth, the session is the cookie's),
 * and the form's `csrf` field must be this session's token, else 403 with
 * the console's page saying so. Every action then calls an admin service,
 * which checks the caller again.
 */
export function consoleRoute(summary: string, handler: ConsoleHandler): RouteSpec {
  return {
    tags: [],
    summary,
    hidden: true,
    responses: { 200: { description: 'The page', contentType: 'text/html' } },
    handler: (deps) => (request, h) => {
      const session = readSession(request);
      const context = pageContextOf(deps, request);
      // The `session` strategy resolves signed-in sessions only: one waiting for its second factor is none here.
      if (!session) {
        if (request.method !== 'get') return h.redirect(pageHref(context, '/login')).code(303);
        return h
          .redirect(pageHref(context, '/login', { return_to: request.url.pathname + request.url.search }))
          .code(302)
          .header('cache-control', 'no-store');
      }
      const { user } = session;
      if (user.role !== 'admin' || user.deletedAt !== null)
        return pageResponse(h, renderConsoleForbiddenPage(context, user.email), 403);
      const csrf = consoleFormToken(deps.cookiePassword, session.session);
      const call = { context, admin: user, console: { adminSub: user.sub, adminEmail: user.email, csrf } };
      if (request.method !== 'get' && !tokenMatches(csrf, formField(request, 'csrf')))
        return pageResponse(h, renderConsoleForbiddenPage(context, user.email, 'INVALID_CONSOLE_FORM'), 403);
      return handler(deps, request, h, call);
    },
  };
}

/** A string field of a posted form (application/x-www-form-urlencoded), or null. */
export function formField(request: Request, name: string): string | null {
  const payload = request.payload as Record<string, unknown> | null | undefined;
  const value = payload && typeof payload === 'object' ? payload[name] : undefined;
  return typeof value === 'string' ? value : null;
}

/** After an action, back to a page with its outcome in the address (POST, redirect, GET: a reload never posts twice). */
export function afterAction(
  h: ResponseToolkit,
  context: PageContext,
  path: string,
  params: Record<string, string | null>,
) {
  return h
    .redirect(pageHref(context, path, params))
    .code(303)
    .header('cache-control', 'no-store');
}
