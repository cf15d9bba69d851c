import type { Clock } from '../clock.js';
import type { EventRecord, UserRecord } from '../model/index.js';
import type { EventRepository, SessionRepository, Tx } from '../storage/repositories.js';
import { requireAdmin } from './require-admin.js';

const day = 86_400_000;
/** The chart's span. */
export const overviewDays = 30;

/**
 * Config drift for the Overview: what the last periodic check of the file
 * against the database found (the `config-drift` job, docs/operations.md).
 */
export interface DriftReport {
  inSync: boolean;
  /** Changes an apply would make; -1 for a collision, which apply refuses. */
  changes: number;
  /** When the check ran (ms since the epoch). */
  checkedAt: number;
}

export interface AdminOverview {
  /** Sign-ins per UTC day, oldest first, today last. */
  signInsPerDay: { day: string; count: number }[];
  /** Failed sign-ins over the same days. */
  failedSignIns: number;
  /** Signed-in sessions that have not expired. */
  activeSessions: number;
  /** The newest `config.applied` event, or null when the config was never applied. */
  lastApply: EventRecord | null;
  /** The last drift check; null before the first. Absent when the service was built without one (tests). */
  drift?: DriftReport | null;
}

export interface AdminOverviewService {
  overview(caller: UserRecord): Promise<AdminOverview>;
}

/**
 * The console's Overview (docs/ui.md, "Admin console"), from the audit event
 * log and the sessions: the sign-ins per day (one grouped count on the
 * type and time index), the failed sign-ins, the live sessions, the last
 * apply, and drift through `drift` when one is given.
 */
export function createAdminOverview(deps: {
  db: Tx;
  events: EventRepository;
  sessions: SessionRepository;
  clock: Clock;
  /** The last drift check (null before the first); without it the Overview shows no drift panel. */
  drift?: () => Promise<DriftReport | null>;
}): AdminOverviewService {
  const count = async (type: EventRecord['type'], since: number, until: number) =>
    (await deps.events.list(deps.db, { type, since, until, page: 1, pageSize: 1 })).total;
  return {
    async overview(caller) {
      requireAdmin(caller);
      const now = deps.clock.now();
      const today = Math.floor(now / day) * day;
      const days = Array.from({ length: overviewDays }, (_, i) => today - (overviewDays - 1 - i) * day);
      const since = days[0];
      const [perDay, failedSignIns, activeSessions, applies, drift] = await Promise.all([
        deps.events.countPerDay(deps.db, { type: 'sign_in.succeeded', since, until: today + day }),
        count('sign_in.failed', since, today + day),
        deps.sessions.countLive(deps.db, now),
        deps.events.list(deps.db, { type: 'config.applied', page: 1, pageSize: 1 }),
        deps.drift?.(),
      ]);
      const overview: AdminOverview = {
        signInsPerDay: days.map((start) => ({
          day: new Date(start).toISOString().slice(0, 10),
          count: perDay.get(start) ?? 0,
        })),
        failedSignIns,
        activeSessions,
        lastApply: applies.events[0] ?? null,
      };
      if (deps.drift) overview.drift = drift ?? null;
      return overview;
    },
  };
}
