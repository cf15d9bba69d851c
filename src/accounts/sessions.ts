import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { SecurityConfig } from '../config/types.js';
import type { SessionRepository, Tx, UserRepository } from '../storage/repositories.js';
import type { SessionRecord, UserRecord } from '../model/index.js';

/**
 * Server-side browser sessions (docs/http-api.md, "Sessions and login"). The `session` cookie carries a
 * random id; the row it points at decides, so logout, user deletion and
 * revocation take effect on the next request. Lifetime: an absolute
 * `security.session_ttl_seconds` from sign-in and an idle limit
 * `security.session_idle_ttl_seconds` since the last request. A session
 * still waiting for a second factor lives at most 10 minutes: a right
 * password is good for finishing the sign-in now, not tomorrow.
 */
export interface ActiveSession {
  session: SessionRecord;
  user: UserRecord;
}

export interface CreateSessionInput {
  sub: string;
  /** RFC 8176 values, e.g. ['pwd']. */
  amr: string[];
  /** Defaults to now. */
  authTime?: number;
  secondFactorPending?: boolean;
}

export interface SessionService {
  /** Returns the raw id for the cookie; only its hash is stored. Inside the caller's transaction, with the sign-in's event. */
  create(tx: Tx, input: CreateSessionInput): Promise<{ id: string; session: SessionRecord }>;
  /**
   * The live session and its live user for a raw cookie id, or null when
   * unknown, expired, idle too long, or the user is gone or soft-deleted.
   * Sessions still waiting for a second factor resolve only with `allowPending`.
   */
  resolve(id: string, options?: { allowPending?: boolean }): Promise<ActiveSession | null>;
  /**
   * Completes a pending sign-in (the second factor was verified or
   * enrolled): the session becomes full, with these methods, auth_time now
   * (the time of the last factor) and its full lifetime from now, under a
   * new id (returned raw, for the cookie): the pending id stops working, so
   * a cookie planted before the second factor never becomes a full session.
   * Null when the pending session ended meanwhile. Inside the caller's
   * transaction, with the sign-in's event.
   */
  completeSecondFactor(tx: Tx, idHash: string, amr: string[]): Promise<string | null>;
  /**
   * The step-up a client's `second_factor: required` asks for (POST
   * /api/auth/step-up): the signed-in session becomes a pending one that
   * must get a second factor (`secondFactorRequired`), under a new id
   * (returned raw, for the cookie; the old id stops working), living at
   * most as long as any pending sign-in. Null when it ended meanwhile.
   */
  stepUp(session: SessionRecord): Promise<string | null>;
  /** The same session under a new id (an account chosen from the remembered ones); null when it ended. */
  renew(idHash: string): Promise<string | null>;
  /** Ends a sign-in still waiting for its second factor (sign-out of a signed-in session is src/accounts/sign-out.ts, with its event). */
  abandonPending(idHash: string): Promise<void>;
  /** Revokes every session of a user, inside the caller's transaction. */
  revokeUser(tx: Tx, sub: string): Promise<number>;
}

/** Writes last_seen_at at most once a minute per session: reads stay reads. */
const touchIntervalMs = 60_000;
/** How long a right password waits for its second factor. */
export const pendingSessionTtlMs = 10 * 60_000;

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

export function createSessionService(deps: {
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  sessions: SessionRepository;
  users: UserRepository;
  security: SecurityConfig;
  clock: Clock;
}): SessionService {
  const { db, sessions, users, security, clock } = deps;
  const newId = () => randomBytes(32).toString('base64url');
  async function renew(
    tx: Tx,
    idHash: string,
    changes: Parameters<SessionRepository['renew']>[3],
  ): Promise<string | null> {
    const id = newId();
    return (await sessions.renew(tx, idHash, hashSessionId(id), changes)) ? id : null;
  }
  return {
    async create(tx, input) {
      const now = clock.now();
      const id = newId();
      const lifetimeMs = security.sessionTtlSeconds * 1000;
      const session: SessionRecord = {
        idHash: hashSessionId(id),
        publicId: randomBytes(16).toString('base64url'),
        sub: input.sub,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: now + (input.secondFactorPending ? Math.min(lifetimeMs, pendingSessionTtlMs) : lifetimeMs),
        authTime: input.authTime ?? now,
        amr: input.amr,
        secondFactorPending: input.secondFactorPending ?? false,
        secondFactorRequired: false,
      };
      await sessions.insert(tx, session);
      return { id, session };
    },

    async resolve(id, options = {}) {
      const now = clock.now();
      const session = await sessions.findByIdHash(db, hashSessionId(id));
      if (!session) return null;
      const idleSince = now - security.sessionIdleTtlSeconds * 1000;
      if (session.expiresAt <= now || session.lastSeenAt <= idleSince) {
        await sessions.delete(db, session.idHash);
        return null;
      }
      if (session.secondFactorPending && !options.allowPending) return null;
      const user = await users.findBySub(db, session.sub);
      if (!user || user.deletedAt !== null) return null;
      if (now - session.lastSeenAt >= touchIntervalMs) {
        session.lastSeenAt = now;
        await sessions.update(db, session.idHash, { lastSeenAt: now });
      }
      return { session, user };
    },

    completeSecondFactor(tx, idHash, amr) {
      const now = clock.now();
      return renew(tx, idHash, {
        secondFactorPending: false,
        secondFactorRequired: false,
        amr,
        authTime: now,
        lastSeenAt: now,
        expiresAt: now + security.sessionTtlSeconds * 1000,
      });
    },

    stepUp(session) {
      const now = clock.now();
      const changes = {
        secondFactorPending: true,
        secondFactorRequired: true,
        lastSeenAt: now,
        expiresAt: Math.min(session.expiresAt, now + pendingSessionTtlMs),
      };
      return deps.transaction((tx) => renew(tx, session.idHash, changes));
    },

    renew(idHash) {
      return deps.transaction((tx) => renew(tx, idHash, { lastSeenAt: clock.now() }));
    },

    async abandonPending(idHash) {
      const session = await sessions.findByIdHash(db, idHash);
      if (session?.secondFactorPending) await sessions.delete(db, idHash);
    },

    revokeUser(tx, sub) {
      return sessions.deleteBySub(tx, sub);
    },
  };
}
