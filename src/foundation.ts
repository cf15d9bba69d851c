import type { Logger } from 'pino';
import type { AreaBase, Foundation } from './area-wiring.js';
import { createEventLog, type EventLog } from './events/index.js';
import { checkConfigDrift } from './gitops/index.js';
import { systemClock, type Clock } from './clock.js';
import type { Config, DatabaseConfig } from './config/types.js';
import type { NewEventRecord } from './model/index.js';
import { createScheduler, type Scheduler } from './scheduler/index.js';
import { deriveKey, resolveServerSecret } from './security/resolve-server-secret.js';
import { openKnexStorage } from './storage/knex/index.js';
import type { Storage } from './storage/repositories.js';

// What every command that touches the database starts from: `serve` builds the app on it (src/app.ts), the others use it as it is.

/** The storage implementation for a database config: the one place that names it. */
export function openStorage(config: DatabaseConfig): Storage {
  return openKnexStorage(config);
}

/** The foundation of a command: an open storage (not yet migrated) and the system clock. */
export function createFoundation(config: Config, options: { storage?: Storage; clock?: Clock } = {}): Foundation {
  return { config, storage: options.storage ?? openStorage(config.database), clock: options.clock ?? systemClock };
}

/** A scheduler over the foundation's storage (serve, `idp jobs run`). */
export function createFoundationScheduler(foundation: Foundation, logger: Logger): Scheduler {
  const { storage, config, clock } = foundation;
  return createScheduler({
    db: storage.db,
    config,
    clock,
    logger,
    repositories: storage.repositories,
    collectGarbage: (now, policy) => storage.collectGarbage(now, policy),
    checkConfigDrift: () => checkConfigDrift(storage, config, clock),
  });
}

/**
 * What the areas of an app share (src/app.ts): the migrated foundation and
 * the resolved server secret (their AreaBase), the audit event log, and the
 * session cookie's key, which the HTTP server and the remembered accounts use.
 */
export async function prepareAreas(
  foundation: Foundation,
  logger: Logger,
  onEvents?: (events: readonly NewEventRecord[]) => void,
): Promise<{ base: AreaBase; events: EventLog; cookiePassword: string }> {
  const { config, storage, clock } = foundation;
  await storage.migrate();
  const secret = await resolveServerSecret({
    configured: config.security.secret,
    db: storage.db,
    settings: storage.repositories.settings,
    clock,
    logger,
  });
  return {
    base: { ...foundation, logger, secret },
    events: createEventLog({ storage, logger, clock, onCommitted: onEvents }),
    cookiePassword: deriveKey(secret, 'session cookie'),
  };
}
