import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { SessionService } from '../../accounts/sessions.js';
import type { SessionRecord, UserRecord } from '../../model/index.js';

/** SPEC.md 5: cookieSessionAuth, an encrypted cookie named `session`. */
export const sessionCookieName = 'session';
export const sessionStrategy = 'session';

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
 * Secure on https, path /) and the `session` auth strategy that resolves it
 * against the server-side session row.
 */
export function registerCookieSessionAuth(
  server: Server,
  deps: { sessions: SessionService; cookiePassword: string; secure: boolean; ttlSeconds: number },
): void {
  server.state(sessionCookieName, {
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

  server.auth.scheme('cookie-session', () => ({
    async authenticate(request: Request, h: ResponseToolkit) {
      const cookie = request.state[sessionCookieName] as Partial<SessionCookie> | undefined;
      if (typeof cookie?.sid !== 'string') return h.unauthenticated(Boom.unauthorized(null, 'Cookie'));
      const active = await deps.sessions.resolve(cookie.sid);
      if (!active) {
        h.unstate(sessionCookieName);
        return h.unauthenticated(Boom.unauthorized(null, 'Cookie'));
      }
      const credentials: SessionCredentials = {
        session: active.session,
        user: active.user,
        authTime: active.session.authTime,
        scope: [active.user.role],
      };
      return h.authenticated({ credentials: credentials as unknown as Record<string, unknown> });
    },
  }));
  server.auth.strategy(sessionStrategy, 'cookie-session');
}

/** The session of an authenticated (or 'optional-session') request, else null. */
export function readSession(request: Request): SessionCredentials | null {
  if (!request.auth.isAuthenticated || request.auth.strategy !== sessionStrategy) return null;
  return request.auth.credentials as unknown as SessionCredentials;
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
 * sign-in: the second-factor step resolves it with `allowPending`.
 */
export function readSessionCookieId(request: Request): string | null {
  const cookie = request.state[sessionCookieName] as Partial<SessionCookie> | undefined;
  return typeof cookie?.sid === 'string' ? cookie.sid : null;
}
