import { createHmac, randomInt } from 'node:crypto';

/**
 * Recovery codes (docs/http-api.md, "Second factors"): 10 per user, shown once, stored as keyed
 * hashes, each single use. A code is 10 characters of an alphabet without
 * look-alikes (no 0/o, 1/l), 50 random bits, shown as `abcde-fghij`; what a
 * user types back is compared without case, spaces or dashes.
 *
 * The hash is an HMAC under a key derived from security.secret: 50 bits
 * would fall to a brute force of a leaked table with a plain hash, not
 * without the server's secret. Being deterministic, it lets one conditional
 * update find and spend a code (RecoveryCodeRepository.use).
 */
export const recoveryCodeCount = 10;
const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
const codeLength = 10;

export function generateRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < recoveryCodeCount) {
    const chars = Array.from({ length: codeLength }, () => alphabet[randomInt(alphabet.length)]).join('');
    codes.add(`${chars.slice(0, 5)}-${chars.slice(5)}`);
  }
  return [...codes];
}

/** The code as stored, or null when the input cannot be one (wrong length or characters). */
export function normalizeRecoveryCode(input: string): string | null {
  const code = input.toLowerCase().replace(/[\s-]/g, '');
  if (code.length !== codeLength || Array.from(code).some((c) => !alphabet.includes(c))) return null;
  return code;
}

export function hashRecoveryCode(normalized: string, key: Buffer): string {
  return createHmac('sha256', key).update(normalized).digest('base64url');
}
