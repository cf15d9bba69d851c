import { hash, timingSafeEqual } from 'node:crypto';

export type VerifyArgon2 = (hash: string, presented: string) => Promise<boolean>;

export interface ClientSecretVerifier {
  verify(secretHash: string, presented: string): Promise<boolean>;
}

/** Entries kept before the cache starts over: it only ever holds secrets that verified. */
const maxCachedSecrets = 10_000;

// crypto.hash is the one-shot form: about half the cost of createHash().update().digest().
const sha256 = (value: string) => hash('sha256', value, 'buffer');

/**
 * Client secrets are stored hashed (docs/architecture.md, "Security rules every change keeps"): `sha256:<base64url>` for
 * high-entropy configured secrets, compared in constant time, or an argon2id
 * PHC string from `client_secret_hash`. argon2 costs tens of milliseconds on
 * purpose, so it must not sit on every token request: a secret that verified
 * once is remembered in memory under a SHA-256 of (stored hash, presented
 * secret), never in clear. A changed hash in the config changes the key, so
 * the old secret stops matching.
 */
export function createClientSecretVerifier(verifyArgon2: VerifyArgon2): ClientSecretVerifier {
  const verified = new Set<string>();
  return {
    async verify(secretHash, presented) {
      if (secretHash.startsWith('sha256:')) {
        const expected = Buffer.from(secretHash.slice('sha256:'.length), 'base64url');
        const actual = sha256(presented);
        return expected.length === actual.length && timingSafeEqual(expected, actual);
      }
      const cacheKey = sha256(`${secretHash}\u0000${presented}`).toString('base64url');
      if (verified.has(cacheKey)) return true;
      if (!(await verifyArgon2(secretHash, presented))) return false;
      if (verified.size >= maxCachedSecrets) verified.clear();
      verified.add(cacheKey);
      return true;
    },
  };
}
