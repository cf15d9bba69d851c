import type { Request, ResponseToolkit } from '@hapi/hapi';
import { challengeTtlMs } from '../accounts/passkey-service.js';
import { sealValue, unsealValue } from '../interaction/sealed-value.js';
import type { HttpDeps } from './http-deps.js';

/**
 * The browser a passkey challenge was given to (docs/http-api.md "Signing in
 * with one"): POST /api/auth/passkey/options adds its challenge to a sealed
 * cookie, and /verify accepts an assertion only for a challenge this cookie
 * lists. An assertion that leaks out of the browser (a log, a relay) is
 * then worth nothing elsewhere: the cookie is HttpOnly, and sealed, so no
 * other browser can make one up that lists the challenge.
 */
export const passkeyChallengeCookie = 'passkey_challenge';
const purpose = 'passkey-challenges';
/** A few open requests at once (two tabs of the sign-in page); the oldest goes first. */
const maxChallenges = 5;

/** The challenges this browser asked for, newest last; empty without a valid cookie. */
export function challengesAskedHere(request: Request, deps: Pick<HttpDeps, 'cookiePassword'>): string[] {
  const cookie: unknown = request.state[passkeyChallengeCookie];
  const value = typeof cookie === 'string' ? unsealValue(cookie, deps.cookiePassword, purpose) : null;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Adds `challenge` to this browser's cookie. */
export function rememberChallenge(
  request: Request,
  h: ResponseToolkit,
  deps: Pick<HttpDeps, 'cookiePassword' | 'config'>,
  challenge: string,
): void {
  const challenges = [...challengesAskedHere(request, deps), challenge].slice(-maxChallenges);
  h.state(passkeyChallengeCookie, sealValue(challenges, deps.cookiePassword, purpose), {
    encoding: 'none',
    isHttpOnly: true,
    isSameSite: 'Strict',
    isSecure: new URL(deps.config.server.baseUrl).protocol === 'https:',
    path: '/api/auth/passkey',
    ttl: challengeTtlMs,
  });
}
