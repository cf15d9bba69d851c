import { timingSafeEqual } from 'node:crypto';
import { authenticator } from 'otplib';

/**
 * RFC 6238 TOTP as docs/http-api.md ("Second factors") fixes it: HMAC-SHA-1, 6 digits, 30-second
 * steps, a code accepted one step early or late (clock drift between the
 * phone and the server). otplib computes the codes; which step a code
 * belongs to is decided here, so that a step once used can be refused
 * (./totp-service.ts, TotpRepository.useStep).
 */
export const totpStepMs = 30_000;
/** Steps accepted either side of now (RFC 6238 §5.2). */
const window = 1;

/** A new secret: 20 random bytes (RFC 4226 §4's recommended length), base32 as authenticator apps take it. */
export function generateTotpSecret(): string {
  return authenticator.generateSecret(20);
}

/** The otpauth:// URL of Google Authenticator's Key Uri Format, which every authenticator app reads from a QR code. */
export function totpUri(secret: string, accountName: string, issuer: string): string {
  return authenticator.keyuri(accountName, issuer, secret);
}

/** The step a time falls in. */
export function totpStep(time: number): number {
  return Math.floor(time / totpStepMs);
}

/** The code of one step (tests and the benchmark compute theirs with otplib directly). */
export function totpCodeAt(secret: string, step: number): string {
  return authenticator.clone({ epoch: step * totpStepMs }).generate(secret);
}

/**
 * The step within ±1 of `now` whose code is `code`, or null. Every
 * candidate is compared in constant time, and all of them are computed, so
 * the answer takes the same time whichever matched.
 */
export function matchTotpStep(secret: string, code: string, now: number): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const given = Buffer.from(code);
  let matched: number | null = null;
  for (let offset = -window; offset <= window; offset++) {
    const step = totpStep(now) + offset;
    if (timingSafeEqual(Buffer.from(totpCodeAt(secret, step)), given)) matched = step;
  }
  return matched;
}
