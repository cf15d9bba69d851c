import type { Clock } from '../clock.js';
import type { EventRecord, UserRecord } from '../model/index.js';
import type { EventRepository, SessionRepository, Tx } from '../storage/repositories.js';
import { requireAdmin } from './require-admin.js';

const day = 86_400_000;
/** The chart's span. */
export const overviewDays = 30;

/**
 * Config drift for the Overview (issue 26's drift check): whether the
 * database matches the config file, and a line saying what differs. The
 * service that answers it is wired at the lead's merge; until then the
 * Overview has no drift panel.
 */
export interface DriftReport {
  inSync: boolean;
  summary: string;
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
  /** Present only while a drift service is wired (overviewDrift below). */
  drift?: DriftReport | null;
}

export interface AdminOverviewService {
  overview(caller: UserRecord): Promise<AdminOverview>;
}

/**
 * The console's Overview (docs/ui.md, "Admin console"), from the audit event
 * log and the sessions: one count per day (30 indexed counts on type and
 * time), the failed sign-ins, the live sessions, the last apply, and drift
 * through `drift` when one is given.
 */
export function createAdminOverview(deps: {
  db: Tx;
  events: EventRepository;
  sessions: SessionRepository;
  clock: Clock;
  /** The drift slot: wire issue 26's check here; without it the Overview shows no drift panel. */
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
        Promise.all(days.map((start) => count('sign_in.succeeded', start, start + day))),
        count('sign_in.failed', since, today + day),
        deps.sessions.countLive(deps.db, now),
        deps.events.list(deps.db, { type: 'config.applied', page: 1, pageSize: 1 }),
        deps.drift?.(),
      ]);
      const overview: AdminOverview = {
        signInsPerDay: days.map((start, i) => ({ day: new Date(start).toISOString().slice(0, 10), count: perDay[i] })),
        failedSignIns,
        activeSessions,
        lastApply: applies.events[0] ?? null,
      };
      if (deps.drift) overview.drift = drift ?? null;
      return overview;
    },
  };
}
