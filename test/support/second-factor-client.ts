import { authenticator } from 'otplib';
import type { TestApp } from './test-app.js';
import { inject, sessionCookieOf, testPassword } from './test-app.js';

/** A settable clock for the app under test: TOTP steps and challenge lifetimes move only when the test says. */
export function testClock(start: number) {
  let time = start;
  return {
    now: () => time,
    set(value: number) {
      time = value;
    },
    advance(ms: number) {
      time += ms;
    },
  };
}

/** The code an authenticator app shows for `secret` at `time`: computed here with otplib, as a phone would. */
export function totpCode(secret: string, time: number): string {
  return authenticator.clone({ epoch: time }).generate(secret);
}

/**
 * One browser (or curl) at one client address: its own X-Forwarded-For, so
 * that the per-address login rate limit of one test never reaches another
 * (the app trusts one proxy hop).
 */
export function browserAt(t: TestApp, address: string) {
  const headers = { 'x-forwarded-for': address };
  // Kept like a browser would: the passkey challenges this browser asked for (docs/http-api.md "Signing in with one").
  let challenges: string | undefined;
  const call = async (
    method: string,
    url: string,
    cookie?: string,
    payload?: unknown,
    extra: Record<string, string> = {},
  ) => {
    const cookies = [cookie, challenges].filter((c) => c !== undefined).join('; ');
    const response = await inject(t, method, url, cookies || undefined, payload, { ...headers, ...extra });
    const set = response.headers['set-cookie'];
    const kept = (Array.isArray(set) ? set : set ? [set] : []).find((c) => c.startsWith('passkey_challenge='));
    if (kept) challenges = kept.split(';')[0];
    return response;
  };
  return {
    call,
    /** POST /api/auth/login; the cookie it set (full or pending) and the answer. */
    async login(email: string, password = testPassword) {
      const response = await call('POST', '/api/auth/login', undefined, { email, password });
      if (response.statusCode !== 200) throw new Error(`login of ${email}: ${response.statusCode} ${response.payload}`);
      return { cookie: sessionCookieOf(response.headers['set-cookie']), body: response.json() };
    },
    /**
     * Enrols and confirms an authenticator app from `cookie`'s session;
     * answers the secret, the recovery codes and the cookie in force after
     * (a pending session's enrolment renews it: docs/http-api.md "Session renewal").
     */
    async enrolTotp(cookie: string, time: number) {
      const begun = await call('POST', '/api/user/totp', cookie);
      if (begun.statusCode !== 200) throw new Error(`POST /api/user/totp: ${begun.statusCode} ${begun.payload}`);
      const { secret } = begun.json() as { secret: string };
      const confirmed = await call('POST', '/api/user/totp/confirm', cookie, { code: totpCode(secret, time) });
      if (confirmed.statusCode !== 200)
        throw new Error(`POST /api/user/totp/confirm: ${confirmed.statusCode} ${confirmed.payload}`);
      const renewed = confirmed.headers['set-cookie'] ? sessionCookieOf(confirmed.headers['set-cookie']) : cookie;
      return { secret, recoveryCodes: confirmed.json().recovery_codes as string[], cookie: renewed };
    },
  };
}
