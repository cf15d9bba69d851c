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

/**
 * Forward authentication (docs/forward-auth.md): the reverse proxy asks,
 * for each request of a protected app, whether the browser's session may
 * pass. Everything comes from the generation-checked caches (the session,
 * its user, their groups), so the common case sends no statement but the
 * generation read the caches share per event-loop turn; a session whose
 * sign-out, revocation or user change bumped the generation is read again
 * and found gone.
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

  async function liveSession(
    sessionId: string,
  ): Promise<{ session: SessionRecord; user: UserRecord; generation: number } | null> {
    const { session, generation } = await deps.cachedReads.findSession(hashSessionId(sessionId));
    if (!session || session.secondFactorPending) return null;
    const now = deps.clock.now();
    if (session.expiresAt <= now) return null;
    const idleSince = now - deps.security.sessionIdleTtlSeconds * 1000;
    if (session.lastSeenAt <= idleSince) {
      // idp's own pages touch the row without this copy seeing it: the row decides whether the session went idle.
      const row = await deps.sessions.findByIdHash(deps.db, session.idHash);
      if (!row || row.lastSeenAt <= idleSince) return null;
      session.lastSeenAt = row.lastSeenAt;
    }
    const user = await deps.cachedReads.findUser(session.sub, generation);
    if (!user || user.deletedAt !== null) return null;
    if (now - session.lastSeenAt >= touchIntervalMs) {
      await deps.sessions.update(deps.db, session.idHash, { lastSeenAt: now });
      session.lastSeenAt = now;
    }
    return { session, user, generation };
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
      const live = await liveSession(sessionId);
      if (!live) return { outcome: 'sign-in' };
      const { session, user, generation } = live;
      const groups = new Set(await deps.cachedReads.groupsOf(user.sub, generation));
      const refusing = [app, decodedApp].find(
        (candidate) =>
          !decideAccess(candidate.access, user, groups).allowed ||
          (candidate.access?.secondFactor === 'required' && !session.amr.some((m) => m === 'otp' || m === 'hwk')),
      );
      if (refusing) {
        await recordDenial(refusing, request.host, user.sub);
        return { outcome: 'deny' };
      }
      return {
        outcome: 'allow',
        headers: {
          [app.headers.user]: user.sub,
          [app.headers.email]: user.email,
          [app.headers.name]: user.name ?? user.email,
          [app.headers.groups]: [...groups].join(','),
        },
      };
    },
  };
}
