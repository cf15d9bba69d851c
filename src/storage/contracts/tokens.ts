/** Grants, refresh and access tokens (src/oidc), and the cache generation their revocation bumps. */
import type { GrantRecord, RefreshTokenRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

/** One refresh of a group commit: the presented token, the client presenting it, and the hash of the token that replaces it. */
export interface RefreshClaim {
  tokenHash: string;
  clientId: string;
  successorHash: string;
}

/** A user and a client, as a grant joins them. */
export interface GrantPair {
  sub: string;
  clientId: string;
}

export interface TokenRepository {
  /** Inserts the grant unless its id exists (`ON CONFLICT DO NOTHING`); true when inserted. */
  insertGrant(tx: Tx, grant: GrantRecord): Promise<boolean>;
  findGrant(tx: Tx, grantId: string): Promise<GrantRecord | null>;
  /** Moves the grant's expiry forward (never back) when a later token outlives it. */
  extendGrant(tx: Tx, grantId: string, expiresAt: number): Promise<void>;
  /** Revokes the grant and every refresh token under it (replay, reuse, RFC 7009). */
  revokeGrant(tx: Tx, grantId: string, now: number): Promise<void>;
  /** Revokes every grant (and refresh token) of these users, or of these clients: a few statements, however many ids. */
  revokeGrantsOfUsers(tx: Tx, subs: string[], now: number): Promise<void>;
  revokeGrantsOfClients(tx: Tx, clientIds: string[], now: number): Promise<void>;
  /**
   * Revokes every grant (and refresh token) these users gave this client:
   * users who lost the client at an apply. A few statements, however many subs.
   */
  revokeGrantsOfClientUsers(tx: Tx, clientId: string, subs: string[], now: number): Promise<void>;
  /**
   * How many active grants (not revoked, not expired at `now`) each of these
   * (sub, client) pairs holds, in one grouped query (a few on SQLite for
   * long lists): the plan's access section counts them for the users who
   * lose a client. Pairs without one are left out.
   */
  countActiveGrants(tx: Tx, pairs: GrantPair[], now: number): Promise<(GrantPair & { count: number })[]>;
  /** Revokes every grant (and refresh token) the user gave this client: a withdrawn consent. */
  revokeGrantsOfUserForClient(tx: Tx, sub: string, clientId: string, now: number): Promise<void>;
  /**
   * Revokes the user's grants (and their refresh tokens) that were not
   * issued in the session `keepSessionId` (SessionRecord.idHash), those
   * without a session included: a password change ends what every other
   * session obtained.
   */
  revokeGrantsOfUserOutsideSession(tx: Tx, sub: string, keepSessionId: string, now: number): Promise<void>;
  /**
   * A sign-out (docs/oidc.md, "Sign-out and back-channel logout"): revokes
   * the grants (and their refresh tokens) issued in these sessions
   * (SessionRecord.idHash), except those whose scopes include
   * `offline_access`, which live on. A few statements, however many sessions.
   */
  revokeGrantsOfSessions(tx: Tx, sessionIds: string[], now: number): Promise<void>;
  /**
   * The clients with a `backchannel_logout_uri` that got a grant in these
   * sessions (offline ones and revoked ones included), each pair once: who
   * gets a Logout Token when the sessions end.
   */
  findBackchannelLogoutClients(tx: Tx, sessionIds: string[]): Promise<{ sessionId: string; clientId: string }[]>;
  insertRefreshToken(tx: Tx, token: RefreshTokenRecord): Promise<void>;
  findRefreshToken(tx: Tx, tokenHash: string): Promise<RefreshTokenRecord | null>;
  /**
   * The refresh tokens with these hashes and their grants (null when the
   * grant is gone), keyed by hash: one query for the refreshes and
   * introspections of one event-loop turn.
   */
  findRefreshTokensWithGrants(
    tx: Tx,
    tokenHashes: string[],
  ): Promise<Map<string, { token: RefreshTokenRecord; grant: GrantRecord | null }>>;
  /**
   * Group commit of refresh-token rotations (issue #16): per client, ONE
   * conditional `UPDATE … SET rotated_at = now, successor_hash = …
   * WHERE client_id = ? AND token_hash IN (…) AND rotated_at IS NULL
   * AND revoked_at IS NULL AND expires_at > now RETURNING` the token and its
   * grant. It claims each token exactly once across instances, and its
   * trigger (migrations/0018) stores the successor, expiring at
   * `successorExpiresAt`, and lengthens a grant that would expire first, in
   * the same statement. A group of several clients runs its statements in
   * one transaction: a group is claimed whole or not at all. Resolves with
   * what was claimed, by presented hash (a hash listed twice is claimed for
   * its first claim by its own client), and the cache generation the
   * statement saw (null when nothing was claimed).
   */
  claimRefreshTokens(
    tx: Tx,
    claims: RefreshClaim[],
    times: { now: number; successorExpiresAt: number },
  ): Promise<{ claimed: Map<string, { token: RefreshTokenRecord; grant: GrantRecord }>; generation: number | null }>;
  /** RFC 7009 revocation of one JWT access token by its jti until its exp. */
  revokeAccessToken(tx: Tx, jti: string, expiresAt: number): Promise<void>;
  /**
   * In one round trip: the access token's jti is not revoked and, when it
   * has a grant, that grant exists, is not revoked, and belongs to the
   * token's `sub` and `clientId` (RFC 9068 §4 leaves no room for a token
   * that names someone else than its grant). Every bearer request asks
   * this, so it is one query, not two.
   */
  isAccessTokenLive(
    tx: Tx,
    jti: string,
    grant: { grantId: string; sub: string; clientId: string } | null,
  ): Promise<boolean>;
}

/**
 * The cache generation (migrations/0017): bumped by triggers in the
 * transaction of every change an in-memory cache may hold (grant or access
 * token revoked, user changed). src/storage/generation-gate.ts reads it.
 */
export interface CacheGenerationRepository {
  read(tx: Tx): Promise<number>;
}
