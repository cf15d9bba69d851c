import type { SessionRecord, UserRecord } from '../model/index.js';
import type { GatedMap, GenerationGate } from '../storage/generation-gate.js';
import type {
  GroupRepository,
  SessionRepository,
  TokenRepository,
  Tx,
  UserRepository,
} from '../storage/repositories.js';

/**
 * The reads every bearer request, introspection and refresh makes,
 * answered from memory while the cache generation stands still (issue #16;
 * src/storage/generation-gate.ts): whether an access token and its grant
 * are live, the user of a grant, and that user's groups. A miss asks the database and keeps a
 * positive answer; a revocation or a user change anywhere bumps the
 * generation and empties both maps before the next request is answered.
 */
export interface CachedReads {
  isAccessTokenLive(jti: string, grant: { grantId: string; sub: string; clientId: string } | null): Promise<boolean>;
  /** `generation`: one read after the request arrived by another statement (GenerationGate.observe), which spares the read of its own. */
  findUser(sub: string, generation?: number): Promise<UserRecord | null>;
  /**
   * The ids of the groups the user is in (any source), sorted: the groups
   * claim and every access check. `generation` as for findUser.
   */
  groupsOf(sub: string, generation?: number): Promise<readonly string[]>;
  /**
   * The session row of a cookie's id hash as the database holds it (expiry
   * and idle time are the caller's to judge), and the generation it was read
   * under, for findUser and groupsOf. Forward authentication asks it on every
   * request of every protected app; ending or renewing a session bumps the
   * generation (migrations/0027). The row is shared: the caller changes
   * only `lastSeenAt`, after writing it. `generation` as for findUser.
   */
  findSession(idHash: string, generation?: number): Promise<{ session: SessionRecord | null; generation: number }>;
  /** The current generation, read after the call (shared by the calls of one event-loop turn): for callers that keep answers of their own in `remember`. */
  generation(): Promise<number>;
  /**
   * A map of a caller's own answers derived from these reads (forward
   * authentication's verdict per session and app), emptied whenever the
   * maps above are; an entry is kept only under the generation it was derived under.
   */
  remember<K, V>(maxEntries: number): GatedMap<K, V>;
}

/** Entries kept per map: a few megabytes at most. */
const maxEntries = 50_000;

export function createCachedReads(deps: {
  gate: GenerationGate;
  db: Tx;
  tokenStore: TokenRepository;
  users: UserRepository;
  groups: GroupRepository;
  sessions: SessionRepository;
}): CachedReads {
  const live = deps.gate.map<string, true>(maxEntries);
  const users = deps.gate.map<string, UserRecord>(maxEntries);
  const groups = deps.gate.map<string, readonly string[]>(maxEntries);
  const sessions = deps.gate.map<string, SessionRecord>(maxEntries);
  return {
    async isAccessTokenLive(jti, grant) {
      const generation = await deps.gate.fresh();
      const key = grant === null ? jti : `${jti}\n${grant.grantId}\n${grant.sub}\n${grant.clientId}`;
      if (live.get(key)) return true;
      const isLive = await deps.tokenStore.isAccessTokenLive(deps.db, jti, grant);
      if (isLive) live.set(key, true, generation);
      return isLive;
    },
    async findUser(sub, observed) {
      const generation = observed === undefined ? await deps.gate.fresh() : deps.gate.observe(observed);
      const cached = users.get(sub);
      if (cached) return cached;
      const user = await deps.users.findBySub(deps.db, sub);
      if (user) users.set(sub, user, generation);
      return user;
    },
    async groupsOf(sub, observed) {
      const generation = observed === undefined ? await deps.gate.fresh() : deps.gate.observe(observed);
      const cached = groups.get(sub);
      if (cached) return cached;
      const ids = [...new Set((await deps.groups.membershipsOf(deps.db, [sub])).map((m) => m.groupId))].sort();
      groups.set(sub, ids, generation);
      return ids;
    },
    async findSession(idHash, observed) {
      const generation = observed === undefined ? await deps.gate.fresh() : deps.gate.observe(observed);
      const cached = sessions.get(idHash);
      if (cached) return { session: cached, generation };
      const session = await deps.sessions.findByIdHash(deps.db, idHash);
      if (session) sessions.set(idHash, session, generation);
      return { session, generation };
    },
    generation: () => deps.gate.fresh(),
    remember: (maxEntries) => deps.gate.map(maxEntries),
  };
}
