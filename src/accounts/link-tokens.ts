import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { LinkTokenRepository, Tx } from '../storage/repositories.js';
import type { LinkTokenPurpose, LinkTokenRecord, UserRecord } from '../model/index.js';

/** How long a mailed link works (docs/http-api.md, "Self-service accounts"). */
export const linkTokenLifetimeHours: Readonly<Record<LinkTokenPurpose, number>> = {
  email_verification: 24,
  password_reset: 1,
};

/** 32 random bytes, base64url: 43 characters. */
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * The single-use tokens of mailed links (docs/http-api.md, "Self-service accounts"): 32 random bytes in
 * the link, only their SHA-256 in the database, redeemed by one conditional
 * update (LinkTokenRepository.redeem). A token is bound to the address it
 * was mailed to: once the user's e-mail changes, it no longer redeems. A
 * new password (changed or reset) ends every link of the user (voidAll).
 */
export interface LinkTokens {
  /** A new token for the user's current address; the raw value goes into the link, and nowhere else. */
  issue(tx: Tx, user: UserRecord, purpose: LinkTokenPurpose): Promise<string>;
  /** The unused, unexpired token of this purpose, without redeeming it (null otherwise): a cheap look before costly work. */
  peek(tx: Tx, token: string, purpose: LinkTokenPurpose): Promise<LinkTokenRecord | null>;
  /**
   * Redeems the token for its user, who must still be live and hold the
   * address it was mailed to; null otherwise. A redemption voids the user's
   * other unused tokens of the purpose: one link ends the others.
   */
  redeem(
    tx: Tx,
    token: string,
    purpose: LinkTokenPurpose,
    findUser: (sub: string) => Promise<UserRecord | null>,
  ): Promise<UserRecord | null>;
  /** Ends every unused link of the user, reset and verification alike, inside the caller's transaction. */
  voidAll(tx: Tx, sub: string): Promise<void>;
}

export function createLinkTokens(deps: { tokens: LinkTokenRepository; clock: Clock }): LinkTokens {
  const { tokens, clock } = deps;
  return {
    async issue(tx, user, purpose) {
      const token = randomBytes(32).toString('base64url');
      const now = clock.now();
      await tokens.insert(tx, {
        tokenHash: hashLinkToken(token),
        sub: user.sub,
        purpose,
        email: user.email,
        createdAt: now,
        expiresAt: now + linkTokenLifetimeHours[purpose] * 3_600_000,
        usedAt: null,
      });
      return token;
    },

    async peek(tx, token, purpose) {
      if (!tokenPattern.test(token)) return null;
      const record = await tokens.find(tx, hashLinkToken(token));
      const usable =
        record !== null && record.purpose === purpose && record.usedAt === null && record.expiresAt > clock.now();
      return usable ? record : null;
    },

    async redeem(tx, token, purpose, findUser) {
      if (!tokenPattern.test(token)) return null;
      const now = clock.now();
      const record = await tokens.redeem(tx, hashLinkToken(token), purpose, now);
      if (!record) return null;
      const user = await findUser(record.sub);
      if (!user || user.deletedAt !== null || user.email.toLowerCase() !== record.email.toLowerCase()) return null;
      await tokens.voidUnused(tx, user.sub, purpose, now);
      return user;
    },

    async voidAll(tx, sub) {
      await tokens.voidAllUnused(tx, sub, clock.now());
    },
  };
}
