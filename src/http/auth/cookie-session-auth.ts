import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { SessionService } from '../../accounts/sessions.js';
import { ApiError } from '../../api-error.js';
import type { SessionRecord, UserRecord } from '../../model/index.js';

/** cookieSessionAuth (docs/http-api.md, "Conventions"), an encrypted cookie named `session`. */
export const sessionCookieName = 'session';
/** A signed-in session (every sign-in step passed). */
export const sessionStrategy = 'session';
/** A session waiting for its second factor: the routes that complete a sign-in. */
export const pendingSessionStrategy = 'pending-session';
/** Either: the enrolment routes, whose service decides what a pending session may do. */
export const sessionOrPendingStrategy = 'session-or-pending';
export const cookieStrategies: readonly string[] = [sessionStrategy, pendingSessionStrategy, sessionOrPendingStrategy];

type Accepted = 'full' | 'pending' | 'either';

const signInNotPending = () =>
  new ApiError(409, 'SIGN_IN_NOT_PENDING', 'This session is not waiting for a second factor: it is signed in already.');

/**
 * `request.auth.credentials` on routes authenticated by the session cookie.
 * `scope` holds the user's role, so that admin routes can require scope 'admin'.
 */
export interface SessionCredentials {
  session: SessionRecord;
  user: UserRecord;
  /** OIDC Core auth_time of this sign-in, epoch ms. */
  authTime: number;
  scope: string[];
}

interface SessionCookie {
  sid: string;
}

/**
 * Registers the `session` cookie (hapi's iron encoding: encrypted and signed
 * with a password derived from security.secret; HttpOnly, SameSite=Lax,
 * Secure on https, path /, Domain forward_auth.cookie_domain when set) and the auth strategies that resolve it against
 * the server-side session row: `session` takes signed-in sessions only (a
 * pending one gets 401 and keeps its cookie, which is still good for its
 * second factor), `pending-session` pending ones only (a signed-in session
 * gets 409 SIGN_IN_NOT_PENDING), `session-or-pending` both.
 */
export function registerCookieSessionAuth(
  server: Server,
  deps: {
    sessions: SessionService;
    cookiePassword: string;
    secure: boolean;
    ttlSeconds: number;
    /** forward_auth.cookie_domain: the sign-in then covers the apps' hosts too (docs/forward-auth.md); null: this host only. */
    domain: string | null;
  },
): void {
  server.state(sessionCookieName, {
    ...(deps.domain === null ? {} : { domain: deps.domain }),
    encoding: 'iron',
    password: deps.cookiePassword,
    isSecure: deps.secure,
    isHttpOnly: true,
    isSameSite: 'Lax',
    path: '/',
    ttl: deps.ttlSeconds * 1000,
    // A cookie we cannot decrypt (old secret, tampering) is dropped, not an error.
    ignoreErrors: true,
    clearInvalid: true,
    strictHeader: true,
  });

  server.auth.scheme('cookie-session', (_server, options) => ({
    async authenticate(request: Request, h: ResponseToolkit) {
      const accepted = (options as { accepted: Accepted }).accepted;
      const cookie = request.state[sessionCookieName] as Partial<SessionCookie> | undefined;
      if (typeof cookie?.sid !== 'string') return h.unauthenticated(Boom.unauthorized(null, 'Cookie'));
      const active = await deps.sessions.resolve(cookie.sid, { allowPending: true });
      if (!active) {
        h.unstate(sessionCookieName);
        return h.unauthenticated(Boom.unauthorized(null, 'Cookie'));
      }
      const pending = active.session.secondFactorPending;
      if (pending && accepted === 'full') return h.unauthenticated(Boom.unauthorized(null, 'Cookie'));
      if (!pending && accepted === 'pending') return h.unauthenticated(signInNotPending());
      const credentials: SessionCredentials = {
        session: active.session,
        user: active.user,
        authTime: active.session.authTime,
        scope: [active.user.role],
      };
      return h.authenticated({ credentials: credentials as unknown as Record<string, unknown> });
    },
  }));
  server.auth.strategy(sessionStrategy, 'cookie-session', { accepted: 'full' });
  server.auth.strategy(pendingSessionStrategy, 'cookie-session', { accepted: 'pending' });
  server.auth.strategy(sessionOrPendingStrategy, 'cookie-session', { accepted: 'either' });
}

/** The session of an authenticated (or 'optional-session') request, else null; `session.secondFactorPending` tells a pending one. */
export function readSession(request: Request): SessionCredentials | null {
  if (!request.auth.isAuthenticated || !cookieStrategies.includes(request.auth.strategy)) return null;
  return request.auth.credentials as unknown as SessionCredentials;
}

/**
 * The session of a request to a route whose auth mode requires one
 * (session, admin, pending-session, session-or-pending): hapi has refused
 * the request before the handler runs when there is none.
 */
export function sessionOf(request: Request): SessionCredentials {
  const session = readSession(request);
  if (!session) throw new Error(`${request.method} ${request.path} has no session: its auth mode does not require one`);
  return session;
}

/**
 * The signed-in session of a request whose route does not authenticate by
 * the cookie (a top-level protocol request), or null when the cookie holds
 * none. An error while reading it (a database outage) is thrown, to be
 * answered as one: never taken for "not signed in", which would send a
 * signed-in user to a fresh sign-in.
 */
export async function testSession(request: Request): Promise<SessionCredentials | null> {
  try {
    const { credentials } = await request.server.auth.test(sessionStrategy, request);
    return credentials as unknown as SessionCredentials;
  } catch (error) {
    // hapi throws the scheme's 401 for no session; anything else failed while reading it.
    if (Boom.isBoom(error) && error.output.statusCode === 401) return null;
    throw error;
  }
}

/** Sets the cookie for a session created by SessionService.create (raw id). */
export function setSessionCookie(h: ResponseToolkit, sessionId: string): void {
  const cookie: SessionCookie = { sid: sessionId };
  h.state(sessionCookieName, cookie);
}

export function clearSessionCookie(h: ResponseToolkit): void {
  h.unstate(sessionCookieName);
}

/**
 * Reads the raw session id from the cookie without requiring a finished
 * sign-in (logout ends a pending one too; the passkey sign-in resolves it
 * with `allowPending`).
 */
export function readSessionCookieId(request: Request): string | null {
  const cookie = request.state[sessionCookieName] as Partial<SessionCookie> | undefined;
  return typeof cookie?.sid === 'string' ? cookie.sid : null;
}
