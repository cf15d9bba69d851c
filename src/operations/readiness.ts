import type { MigrationStatus } from '../storage/repositories.js';
import { withinTimeout } from './within-timeout.js';

export type ReadinessAnswer =
  | { ready: true }
  | {
      ready: false;
      /** What is missing: the database does not answer, or its schema is behind this version's migrations. */
      cause: 'database' | 'migrations';
      message: string;
    };

export interface Readiness {
  /** Each check within `timeoutMs` (the health route's), in order; the first that fails is the answer. */
  check(timeoutMs: number): Promise<ReadinessAnswer>;
}

/**
 * GET /api/health/ready (docs/http-api.md, "Health"): may this instance
 * take traffic? The database answers, and its migrations are those this
 * version ships (a database another instance has migrated further is still
 * ready: forward-compatible migrations keep a rolling deploy serving). The
 * third condition, a loaded config, holds by construction: the server
 * listens only after loading (and, unless --no-apply, applying) it, and a
 * refused reload keeps the last good one.
 */
export function createReadiness(deps: {
  ping(): Promise<void>;
  migrationStatus(): Promise<MigrationStatus>;
}): Readiness {
  return {
    async check(timeoutMs) {
      let status: MigrationStatus;
      try {
        await withinTimeout(deps.ping(), timeoutMs);
        status = await withinTimeout(deps.migrationStatus(), timeoutMs);
      } catch {
        return { ready: false, cause: 'database', message: 'The database is not answering.' };
      }
      const { pending } = status;
      if (pending.length > 0)
        return {
          ready: false,
          cause: 'migrations',
          message: `The database schema is behind: ${String(pending.length)} ${pending.length === 1 ? 'migration is' : 'migrations are'} pending, the first ${pending[0]}; run idp migrate.`,
        };
      return { ready: true };
    },
  };
}
