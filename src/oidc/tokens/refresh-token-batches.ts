import type { Clock } from '../../clock.js';
import type { GrantRecord, RefreshTokenRecord } from '../../model/index.js';
import { batchPerTurn } from '../../storage/batch-per-turn.js';
import type { RefreshRotation, TokenRepository, Tx } from '../../storage/repositories.js';

/** A refresh token as stored, with its grant (null when the grant is gone). */
export interface StoredRefreshToken {
  token: RefreshTokenRecord;
  grant: GrantRecord | null;
}

/** What one refresh stores: the presented token is retired and, when the client may still refresh, `successor` replaces it. */
export interface RotationRequest {
  tokenHash: string;
  grantId: string;
  /** The new token's hash and owner; its times are the batch's. */
  successor: Pick<RefreshTokenRecord, 'tokenHash' | 'clientId' | 'sub' | 'scopes'> | null;
  /** When there is no successor, the grant lives at least as long as the access token. */
  accessExpiresAt: number;
}

/**
 * The refresh tokens' reads and writes, grouped per event-loop turn (issue
 * #16, batchPerTurn): every lookup of a turn is one query, every rotation
 * of a turn one transaction of a few set-based statements
 * (TokenRepository.commitRotations). Each call still gets its own answer:
 * when a group's transaction fails, its rotations are retried one
 * transaction each, so one failure (a PostgreSQL deadlock or serialization
 * error included) fails no other request.
 */
export interface RefreshTokenBatches {
  find(tokenHash: string): Promise<StoredRefreshToken | null>;
  /** True when this call rotated the token; false when it was rotated or revoked already (a reuse). */
  rotate(rotation: RotationRequest): Promise<boolean>;
}

type Outcome = { claimed: boolean } | { error: unknown };

export function createRefreshTokenBatches(deps: {
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  tokenStore: TokenRepository;
  clock: Clock;
  refreshTokenTtlSeconds: number;
  /** Groups in flight at once: one for SQLite's single connection, more for a PostgreSQL pool. */
  concurrency: number;
}): RefreshTokenBatches {
  const find = batchPerTurn<string, StoredRefreshToken | null>(
    async (hashes) => {
      const found = await deps.tokenStore.findRefreshTokensWithGrants(deps.db, [...new Set(hashes)]);
      return hashes.map((hash) => found.get(hash) ?? null);
    },
    { concurrency: deps.concurrency },
  );

  function rotationsAt(requests: RotationRequest[], now: number): RefreshRotation[] {
    const expiresAt = now + deps.refreshTokenTtlSeconds * 1000;
    return requests.map((r) => ({
      tokenHash: r.tokenHash,
      grantId: r.grantId,
      successor: r.successor && { ...r.successor, grantId: r.grantId, expiresAt, rotatedAt: null, revokedAt: null, createdAt: now },
      grantExpiresAt: r.successor ? expiresAt : r.accessExpiresAt,
    }));
  }

  const commit = (requests: RotationRequest[]) => {
    const now = deps.clock.now();
    return deps.transaction((tx) => deps.tokenStore.commitRotations(tx, rotationsAt(requests, now), now));
  };

  const rotate = batchPerTurn<RotationRequest, Outcome>(
    async (requests) => {
      try {
        const claimed = await commit(requests);
        // A hash twice in one group: only its first rotation is the winner.
        return requests.map((r) => ({ claimed: claimed.delete(r.tokenHash) }));
      } catch (error) {
        if (requests.length === 1) return [{ error }];
        return Promise.all(
          requests.map((r) =>
            commit([r]).then(
              (claimed): Outcome => ({ claimed: claimed.has(r.tokenHash) }),
              (single: unknown): Outcome => ({ error: single }),
            ),
          ),
        );
      }
    },
    { concurrency: deps.concurrency },
  );

  return {
    find,
    async rotate(rotation) {
      const outcome = await rotate(rotation);
      if ('error' in outcome) throw outcome.error;
      return outcome.claimed;
    },
  };
}
