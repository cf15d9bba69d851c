/** Second factors (src/accounts: totp-service.ts, passkey-service.ts). */
import type { PasskeyRecord, TotpCredentialRecord, WebAuthnChallengeRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface TotpRepository {
  find(tx: Tx, sub: string): Promise<TotpCredentialRecord | null>;
  /**
   * Starts an enrolment: stores the pending secret, replacing a pending one,
   * in one conditional upsert that never touches a confirmed TOTP. False when
   * the user has a confirmed TOTP.
   */
  savePending(tx: Tx, record: TotpCredentialRecord): Promise<boolean>;
  /**
   * Confirms the pending enrolment whose secret is `sealedSecret` and records
   * `step` as used: ONE conditional update (`… WHERE confirmed_at IS NULL AND
   * secret = ?`). True for exactly one of concurrent callers; false when it
   * was confirmed or replaced meanwhile.
   */
  confirm(tx: Tx, sub: string, sealedSecret: string, step: number, now: number): Promise<boolean>;
  /**
   * Accepts a code's time step once (RFC 6238 §5.2): ONE conditional update
   * `SET last_used_step = step WHERE confirmed_at IS NOT NULL AND
   * (last_used_step IS NULL OR last_used_step < step)`. True for exactly one
   * of concurrent callers; false for a step used already, or an earlier one.
   */
  useStep(tx: Tx, sub: string, step: number): Promise<boolean>;
  /** Removes the user's TOTP, pending or confirmed; true when there was one. */
  delete(tx: Tx, sub: string): Promise<boolean>;
  /** Inserts confirmed TOTPs of users who have none, in batched statements (`idp import`). */
  insertMany(tx: Tx, records: TotpCredentialRecord[]): Promise<void>;
  /** Which of these users have a confirmed TOTP. */
  findConfirmedSubs(tx: Tx, subs: string[]): Promise<Set<string>>;
}

export interface RecoveryCodeRepository {
  /** Replaces every code of the user with these (hashes), unused. */
  replace(tx: Tx, sub: string, codeHashes: string[], now: number): Promise<void>;
  /**
   * Uses one code: ONE conditional update `SET used_at = now WHERE sub = ?
   * AND code_hash = ? AND used_at IS NULL`. True for exactly one of
   * concurrent callers; false for an unknown or used code.
   */
  use(tx: Tx, sub: string, codeHash: string, now: number): Promise<boolean>;
  /** Unused codes per user, for these users (absent: none). */
  countUnused(tx: Tx, subs: string[]): Promise<Map<string, number>>;
  deleteBySub(tx: Tx, sub: string): Promise<number>;
}

export interface PasskeyRepository {
  /** False when the credential id is registered already (to anyone): `ON CONFLICT DO NOTHING`. */
  insert(tx: Tx, passkey: PasskeyRecord): Promise<boolean>;
  /** The user's passkeys, oldest first. */
  listBySub(tx: Tx, sub: string): Promise<PasskeyRecord[]>;
  findByCredentialId(tx: Tx, credentialId: string): Promise<PasskeyRecord | null>;
  /**
   * Records a sign-in with the passkey: the authenticator's new signature
   * counter, its backup state and the time. The counter only moves forward:
   * an update that would not raise a non-zero counter changes nothing and
   * answers false (a cloned authenticator, or a lost race).
   */
  recordUse(tx: Tx, id: string, use: { signCount: number; backedUp: boolean; usedAt: number }): Promise<boolean>;
  /** Renames one of the user's passkeys; false when the user has no passkey with this id. */
  rename(tx: Tx, sub: string, id: string, name: string): Promise<boolean>;
  /** Removes one of the user's passkeys; false when the user has no passkey with this id. */
  delete(tx: Tx, sub: string, id: string): Promise<boolean>;
  deleteBySub(tx: Tx, sub: string): Promise<number>;
  /** Passkeys per user, for these users (absent: none). */
  countBySubs(tx: Tx, subs: string[]): Promise<Map<string, number>>;
}

export interface WebAuthnChallengeRepository {
  insert(tx: Tx, challenge: WebAuthnChallengeRecord): Promise<void>;
  /**
   * Takes a challenge once: a read, then ONE `DELETE … WHERE challenge = ?`
   * whose row count decides. Exactly one of concurrent callers gets the
   * record; the others, and every later caller, get null. Expiry is the
   * caller's check.
   */
  consume(tx: Tx, challenge: string): Promise<WebAuthnChallengeRecord | null>;
}
