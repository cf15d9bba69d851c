/** Mailed links (src/accounts: registration, e-mail verification, password reset). */
import type { LinkTokenPurpose, LinkTokenRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface LinkTokenRepository {
  insert(tx: Tx, token: LinkTokenRecord): Promise<void>;
  /** The token, used or not, expired or not; null when unknown. A look before the work a redemption needs, never a redemption. */
  find(tx: Tx, tokenHash: string): Promise<LinkTokenRecord | null>;
  /**
   * Redeems a token once (docs/http-api.md, "Self-service accounts"; CONTRIBUTING.md, "How the code is written", 9): ONE conditional
   * `UPDATE … SET used_at = now WHERE token_hash = ? AND purpose = ? AND
   * used_at IS NULL AND expires_at > now`, then a read of the row it changed.
   * Of concurrent callers on either engine exactly one gets the record; the
   * others, and every caller of an unknown, expired, used or other-purpose
   * token, get null.
   */
  redeem(tx: Tx, tokenHash: string, purpose: LinkTokenPurpose, now: number): Promise<LinkTokenRecord | null>;
  /** Marks every unused token of the user for the purpose used (one redeemed link voids its siblings); returns how many. */
  voidUnused(tx: Tx, sub: string, purpose: LinkTokenPurpose, now: number): Promise<number>;
  /** Marks every unused token of the user used, whatever the purpose (a new password ends every link); returns how many. */
  voidAllUnused(tx: Tx, sub: string, now: number): Promise<number>;
  /** Cleanup: removes up to `limit` tokens that expired before `now`, used or not. */
  deleteExpired(tx: Tx, now: number, limit: number): Promise<number>;
}
