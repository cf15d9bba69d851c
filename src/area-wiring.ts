import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { Config } from './config/types.js';
import type { Storage } from './storage/repositories.js';

/** What every command that touches the database shares (src/foundation.ts opens it). */
export interface Foundation {
  config: Config;
  storage: Storage;
  clock: Clock;
}

/**
 * What the composition root (src/app.ts) hands every area's wiring
 * function, src/<area>/wire-<area>.ts: the foundation, the server log and
 * the resolved server secret, from which an area derives its own keys.
 * What an area needs of another area is the wiring function's second
 * parameter, named there.
 */
export interface AreaBase extends Foundation {
  logger: Logger;
  /** security.secret, or the one generated and kept in the database (src/security/resolve-server-secret.ts). */
  secret: string;
}
