import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import bcrypt from 'bcryptjs';

/**
 * Password hashes brought in by `idp import` (docs/operations.md, "Migrating
 * from Keycloak and Auth0"), stored in a form that names their algorithm so
 * that a sign-in checks each with its own and then replaces it by argon2id
 * (./passwords.ts):
 * - PBKDF2 as `$pbkdf2-<digest>$i=<iterations>$<salt>$<hash>` (PHC-like;
 *   salt and hash in standard base64 without padding), digest sha1, sha256
 *   or sha512: Keycloak's pbkdf2, pbkdf2-sha256 and pbkdf2-sha512;
 * - bcrypt as is (`$2a$` / `$2b$`): Auth0's;
 * - argon2 as a PHC string, which ./passwords.ts verifies with argon2.
 */
export type Pbkdf2Digest = 'sha1' | 'sha256' | 'sha512';

/**
 * Bounds on what an export may ask a sign-in to compute: an iteration count
 * far beyond any real deployment's would make each sign-in of the user a
 * denial of service, and a derived key outside these lengths is not a hash.
 */
export const pbkdf2Limits = { minIterations: 1_000, maxIterations: 10_000_000, minKeyBytes: 16, maxKeyBytes: 256 };

const pbkdf2Pattern = /^\$pbkdf2-(sha1|sha256|sha512)\$i=([1-9][0-9]{0,7})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
const bcryptPattern = /^\$2[ab]\$(0[4-9]|[12][0-9]|3[01])\$[./A-Za-z0-9]{53}$/;

const pbkdf2Async = promisify(pbkdf2);
const unpadded = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/** The stored form of a PBKDF2 hash; null (with why) when the parameters are out of pbkdf2Limits. */
export function pbkdf2Hash(
  digest: Pbkdf2Digest,
  iterations: number,
  salt: Buffer,
  key: Buffer,
): { hash: string } | { problem: string } {
  const { minIterations, maxIterations, minKeyBytes, maxKeyBytes } = pbkdf2Limits;
  if (!Number.isInteger(iterations) || iterations < minIterations || iterations > maxIterations)
    return { problem: `${iterations} PBKDF2 iterations is outside ${minIterations}..${maxIterations}` };
  if (key.length < minKeyBytes || key.length > maxKeyBytes)
    return { problem: `a ${key.length}-byte PBKDF2 hash is outside ${minKeyBytes}..${maxKeyBytes} bytes` };
  if (salt.length === 0) return { problem: 'the PBKDF2 salt is empty' };
  return { hash: `$pbkdf2-${digest}$i=${iterations}$${unpadded(salt)}$${unpadded(key)}` };
}

/** A bcrypt hash as bcryptjs checks it, or null; `$2y$` (PHP's name for the same algorithm) becomes `$2b$`. */
export function bcryptHash(text: string): string | null {
  const normalized = text.startsWith('$2y$') ? `$2b$${text.slice(4)}` : text;
  return bcryptPattern.test(normalized) ? normalized : null;
}

/**
 * Whether `plain` matches an imported PBKDF2 or bcrypt hash, compared in
 * constant time (timingSafeEqual; bcryptjs compares its own way in
 * constant time); null when `hash` is neither.
 */
export async function verifyImportedHash(hash: string, plain: string): Promise<boolean | null> {
  const pbkdf2Match = pbkdf2Pattern.exec(hash);
  if (pbkdf2Match) {
    const [, digest, iterations, salt, key] = pbkdf2Match;
    const expected = Buffer.from(key, 'base64');
    const count = Number(iterations);
    if (count > pbkdf2Limits.maxIterations || expected.length > pbkdf2Limits.maxKeyBytes) return false;
    const derived = await pbkdf2Async(plain, Buffer.from(salt, 'base64'), count, expected.length, digest);
    return timingSafeEqual(derived, expected);
  }
  if (bcryptPattern.test(hash)) return bcrypt.compare(plain, hash);
  return null;
}
