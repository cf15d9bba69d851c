import type { Clock } from '../../clock.js';
import type { GrantRecord, RefreshTokenRecord } from '../../model/index.js';
import { batchPerTurn } from '../../storage/batch-per-turn.js';
import type { TokenRepository, Tx } from '../../storage/repositories.js';
import { hashOpaqueToken, newOpaqueToken } from './opaque-token.js';

/** A refresh token as stored, with its grant (null when the grant is gone). */
export interface StoredRefreshToken {
  token: RefreshTokenRecord;
  grant: GrantRecord | null;
}

/** A refresh token this call retired, its grant, and the new refresh token that replaces it (already stored). */
export interface ClaimedRefreshToken {
  token: RefreshTokenRecord;
  grant: GrantRecord;
  successor: string;
  /** The cache generation the claim saw (GenerationGate.observe): the user can come from the cache without a read of its own. */
  cacheGeneration: number;
}

/**
 * The refresh tokens' reads and rotations, grouped per event-loop turn
 * (issue #16, batchPerTurn): the lookups of a turn are one query, the
 * rotations of a turn one statement per client
 * (TokenRepository.claimRefreshTokens), which claims the tokens, reads them
 * with their grants and, through its trigger, stores their successors.
 * Each call still gets its own answer: when a group's statement fails, its
 * claims are retried one statement each, so one failure (a PostgreSQL
 * deadlock or serialization error included) fails no other request.
 */
export interface RefreshTokenBatches {
  find(tokenHash: string): Promise<StoredRefreshToken | null>;
  /**
   * Retires the token presented by `clientId` and stores its successor, when
   * it is that client's, live, unexpired and not rotated yet; null otherwise
   * (find tells why).
   */
  claim(tokenHash: string, clientId: string): Promise<ClaimedRefreshToken | null>;
}

interface Claim {
  tokenHash: string;
  clientId: string;
  successor: string;
}

type Outcome = { claimed: ClaimedRefreshToken | null } | { error: unknown };

export function createRefreshTokenBatches(deps: {
  db: Tx;
  tokenStore: TokenRepository;
  clock: Clock;
  refreshTokenTtlSeconds: number;
  /** Groups in flight at once: one for SQLite's single connection, more for a PostgreSQL pool. */
  concurrency: number;
  /** Makes a successor's value (newOpaqueToken; a test makes two collide to see a group fail). */
  newToken?: () => string;
}): RefreshTokenBatches {
  const newToken = deps.newToken ?? newOpaqueToken;
  const ttlMs = deps.refreshTokenTtlSeconds * 1000;
  const find = batchPerTurn<string, StoredRefreshToken | null>(
    async (hashes) => {
      const found = await deps.tokenStore.findRefreshTokensWithGrants(deps.db, [...new Set(hashes)]);
      return hashes.map((hash) => found.get(hash) ?? null);
    },
    { concurrency: deps.concurrency },
  );

  async function commit(claims: Claim[]): Promise<(ClaimedRefreshToken | null)[]> {
    const now = deps.clock.now();
    const rows = claims.map((c) => ({
      tokenHash: c.tokenHash,
      clientId: c.clientId,
      successorHash: hashOpaqueToken(c.successor),
    }));
    const { claimed, generation } = await deps.tokenStore.claimRefreshTokens(deps.db, rows, {
      now,
      successorExpiresAt: now + ttlMs,
    });
    const won = new Set<string>();
    return claims.map((c) => {
      const hit = claimed.get(c.tokenHash);
      // A hash twice in one group: the first claim by its own client won, the others are reuses.
      if (!hit || generation === null || hit.token.clientId !== c.clientId || won.has(c.tokenHash)) return null;
      won.add(c.tokenHash);
      return { ...hit, successor: c.successor, cacheGeneration: generation };
    });
  }

  const claim = batchPerTurn<Claim, Outcome>(
    async (claims) => {
      try {
        return (await commit(claims)).map((claimed) => ({ claimed }));
      } catch (error) {
        if (claims.length === 1) return [{ error }];
        return Promise.all(
          claims.map((c) =>
            commit([c]).then(
              ([claimed]): Outcome => ({ claimed }),
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
    async claim(tokenHash, clientId) {
      const outcome = await claim({ tokenHash, clientId, successor: newToken() });
      if ('error' in outcome) throw outcome.error;
      return outcome.claimed;
    },
  };
}
