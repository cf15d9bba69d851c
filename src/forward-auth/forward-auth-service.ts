import { decideAccess } from '../access/decide-access.js';
import { hashSessionId } from '../accounts/sessions.js';
import type { Clock } from '../clock.js';
import type { ForwardAuthAppConfig, ForwardAuthConfig, SecurityConfig } from '../config/types.js';
import type { EventLog } from '../events/index.js';
import type { SessionRecord, UserRecord } from '../model/index.js';
import type { CachedReads } from '../oidc/cached-reads.js';
import type { SessionRepository, Storage, Tx } from '../storage/repositories.js';
import { matchApp } from '../config/forward-auth-hosts.js';

/** The request the reverse proxy asks about, as the route read it from the proxy's headers. */
export interface OriginalRequest {
  /** Lower-case, without port. */
  host: string;
  /** The path, without query. */
  path: string;
  /** The path as an app that decodes `%2F` and `%5C` would route it, when that differs from `path`. */
  decodedPath: string | null;
}

export type ForwardAuthAnswer =
  /** Signed in and allowed: the identity headers for the app. */
  | { outcome: 'allow'; headers: Record<string, string> }
  /** No live signed-in session: sign in first. */
  | { outcome: 'sign-in' }
  /** Signed in but outside the app's access rule. */
  | { outcome: 'deny' }
  /** No app declares this host (and path). */
  | { outcome: 'unknown-app' };

export interface ForwardAuth {
  /** `sessionId`: the raw id of the session cookie, or null when the request carries none. */
  check(request: OriginalRequest, sessionId: string | null): Promise<ForwardAuthAnswer>;
}

/** Writes last_seen_at at most once a minute per session, as SessionService.resolve does. */
const touchIntervalMs = 60_000;
/** access.denied at most once a minute per user and app: a refused user's page loads dozens of assets. */
const denialEventIntervalMs = 60_000;
/** Remembered denials, a few kilobytes each thousand. */
const maxRememberedDenials = 10_000;
/** Signed-in sessions remembered with their verdicts: a few hundred bytes each. */
const maxRememberedSessions = 50_000;

/** A session found live, its user and groups, and the verdicts reached for it so far, per app entry. */
interface SignedIn {
  /** Shared with the session cache: only `lastSeenAt` changes, after it is written. */
  session: SessionRecord;
  user: UserRecord;
  groups: readonly string[];
  verdicts: Map<ForwardAuthAppConfig, ForwardAuthAnswer>;
}

/**
 * Forward authentication (docs/forward-auth.md): the reverse proxy asks,
 * for each request of a protected app, whether the browser's session may
 * pass. Everything comes from the generation-checked caches (the session,
 * its user, their groups), so the common case sends no statement but the
 * generation read the caches share per event-loop turn; a session whose
 * sign-out, revocation or user change bumped the generation is read again
 * and found gone.
 *
 * On top of those caches, the verdict itself (allowed, with which identity
 * headers, or refused) is kept per session and app entry under the same
 * generation: every fact it rests on is in the bumped set, except time
 * (the session's expiry and idle limit, and the once-a-minute touch), which
 * is judged again on every request. The proxy asks about every asset of
 * every page, so the repeated answer must cost no more than a map lookup.
 */
export function createForwardAuth(deps: {
  config: ForwardAuthConfig;
  security: SecurityConfig;
  cachedReads: CachedReads;
  db: Tx;
  sessions: SessionRepository;
  storage: Pick<Storage, 'transaction'>;
  events: EventLog;
  clock: Clock;
}): ForwardAuth {
  const denials = new Map<string, number>();
  // By the cookie's raw id, as the caller holds it: a hit spares hashing it. Null: no signed-in session
  // behind the id (ended, waiting for a second factor, its user deleted), kept too, for a signed-out
  // browser still asks about every asset of the page; whatever could change that moves the generation.
  const signedIn = deps.cachedReads.remember<string, SignedIn | null>(maxRememberedSessions);

  async function findSignedIn(sessionId: string, generation: number): Promise<SignedIn | null> {
    const known = signedIn.get(sessionId);
    if (known !== undefined) return known;
    const found = await lookUp(sessionId, generation);
    signedIn.set(sessionId, found, generation);
    return found;
  }

  async function lookUp(sessionId: string, generation: number): Promise<SignedIn | null> {
    const { session } = await deps.cachedReads.findSession(hashSessionId(sessionId), generation);
    if (!session || session.secondFactorPending) return null;
    const user = await deps.cachedReads.findUser(session.sub, generation);
    if (!user || user.deletedAt !== null) return null;
    const groups = await deps.cachedReads.groupsOf(user.sub, generation);
    return { session, user, groups, verdicts: new Map() };
  }

  /** Whether the session is within its lifetime and idle limit now, touching it at most once a minute. */
  async function isLive(session: SessionRecord): Promise<boolean> {
    const now = deps.clock.now();
    if (session.expiresAt <= now) return false;
    const idleSince = now - deps.security.sessionIdleTtlSeconds * 1000;
    if (session.lastSeenAt <= idleSince) {
      // idp's own pages touch the row without this copy seeing it: the row decides whether the session went idle.
      const row = await deps.sessions.findByIdHash(deps.db, session.idHash);
      if (!row || row.lastSeenAt <= idleSince) return false;
      session.lastSeenAt = row.lastSeenAt;
    }
    if (now - session.lastSeenAt >= touchIntervalMs) {
      await deps.sessions.update(deps.db, session.idHash, { lastSeenAt: now });
      session.lastSeenAt = now;
    }
    return true;
  }

  function verdictOf(known: SignedIn, app: ForwardAuthAppConfig): ForwardAuthAnswer {
    let verdict = known.verdicts.get(app);
    if (verdict) return verdict;
    const { user, groups, session } = known;
    const allowed =
      decideAccess(app.access, user, new Set(groups)).allowed &&
      (app.access?.secondFactor !== 'required' || session.amr.some((m) => m === 'otp' || m === 'hwk'));
    verdict = allowed
      ? {
          outcome: 'allow',
          headers: {
            [app.headers.user]: user.sub,
            [app.headers.email]: user.email,
            [app.headers.name]: user.name ?? user.email,
            [app.headers.groups]: groups.join(','),
          },
        }
      : { outcome: 'deny' };
    known.verdicts.set(app, verdict);
    return verdict;
  }

  async function recordDenial(app: ForwardAuthAppConfig, host: string, sub: string): Promise<void> {
    const key = `${sub}\n${app.host}\n${app.pathPrefix}`;
    const now = deps.clock.now();
    const last = denials.get(key);
    if (last !== undefined && now - last < denialEventIntervalMs) return;
    denials.delete(key);
    if (denials.size >= maxRememberedDenials) denials.delete(denials.keys().next().value as string);
    denials.set(key, now);
    await deps.storage.transaction((tx) =>
      deps.events.record(tx, {
        type: 'access.denied',
        actor: sub,
        subject: sub,
        detail: { at: 'forward_auth', host, app: app.host, path_prefix: app.pathPrefix },
      }),
    );
  }

  return {
    async check(request, sessionId) {
      const app = matchApp(deps.config.apps, request.host, request.path);
      // Whichever way the app reads an encoded slash, the request passes only if both readings may.
      const decodedApp =
        request.decodedPath === null ? app : matchApp(deps.config.apps, request.host, request.decodedPath);
      if (!app || !decodedApp) return { outcome: 'unknown-app' };
      if (sessionId === null) return { outcome: 'sign-in' };
      const known = await findSignedIn(sessionId, await deps.cachedReads.generation());
      if (!known || !(await isLive(known.session))) return { outcome: 'sign-in' };
      const verdict = verdictOf(known, app);
      const refusing =
        verdict.outcome !== 'allow' ? app : verdictOf(known, decodedApp).outcome !== 'allow' ? decodedApp : null;
      if (refusing) {
        await recordDenial(refusing, request.host, known.user.sub);
        return { outcome: 'deny' };
      }
      return verdict;
    },
  };
}
