import argon2 from 'argon2';
import { verifyImportedHash } from './imported-password-hashes.js';

/**
 * Password hashing: argon2id (RFC 9106) with the OWASP Password Storage
 * Cheat Sheet's baseline parameters. They are deliberately modest: the
 * server runs on small machines where several logins may hash at once, and
 * 19 MiB x 2 passes already costs an attacker far more than any fast hash.
 * Hashes made with other parameters (e.g. an operator's own `password_hash`)
 * still verify: the PHC string carries its own parameters.
 */

/** Memory per hash, in KiB (19 MiB). */
export const ARGON2_MEMORY_KIB = 19_456;
/** Passes over memory. */
export const ARGON2_TIME_COST = 2;
/** Lanes; 1 keeps one login on one core. */
export const ARGON2_PARALLELISM = 1;
/** Output length in bytes. */
export const ARGON2_HASH_LENGTH = 32;

/** Returns an argon2id PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`). */
export async function hashPassword(plain: string): Promise<string> {
  return argon2.hash(plain, {
    type: argon2.argon2id,
    memoryCost: ARGON2_MEMORY_KIB,
    timeCost: ARGON2_TIME_COST,
    parallelism: ARGON2_PARALLELISM,
    hashLength: ARGON2_HASH_LENGTH,
  });
}

/**
 * True when `plain` matches the stored hash: an argon2 PHC string, or a hash
 * brought in by `idp import` (./imported-password-hashes.ts), each checked
 * with its own algorithm in constant time. A malformed hash is a mismatch,
 * never an exception: a bad stored value must not turn a login into a 500.
 */
export async function verifyPassword(hash: string, plain: string): Promise<boolean> {
  try {
    return (await verifyImportedHash(hash, plain)) ?? (await argon2.verify(hash, plain));
  } catch {
    return false;
  }
}

/**
 * Whether a stored hash that just verified should be replaced by
 * hashPassword's: every hash that is not argon2id (an imported PBKDF2,
 * bcrypt, argon2i or argon2d one). An argon2id hash of other parameters
 * stays: it is as strong a kind, and the config may carry it.
 */
export function needsRehash(hash: string): boolean {
  return !hash.startsWith('$argon2id$');
}
