import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { loadCommandConfig } from '../load-command-config.js';
import { openCommandFoundation } from '../open-command-foundation.js';
import { createApp } from '../../app.js';
import { applyConfig, ApplyConflictError } from '../../gitops/index.js';
import { createLogger } from '../../logger.js';

export interface ServeOptions {
  config?: string;
  host?: string;
  port?: string;
  /** commander's --no-apply sets this to false. */
  apply?: boolean;
}

/** How long a shutdown waits for in-flight requests before closing them. */
const drainTimeoutMs = 10_000;

/**
 * `idp serve`: load the config, open and migrate the database, apply the
 * config (unless --no-apply), start the server and log one line with its
 * URL; on SIGTERM or SIGINT drain in-flight requests and close the database.
 * `waitForShutdown` exists so that tests can stop the server without signals.
 */
export async function runServe(ctx: CliContext, opts: ServeOptions, waitForShutdown: () => Promise<string> = processSignal): Promise<number> {
  const port = parsePort(opts.port);
  const loaded = await loadCommandConfig(ctx, opts.config);
  const config = {
    ...loaded,
    server: { ...loaded.server, host: opts.host ?? loaded.server.host, port: port ?? loaded.server.port },
  };
  const logger = createLogger(config.logging);
  const { storage, clock } = await openCommandFoundation(config, ctx.cwd);
  try {
    if (opts.apply !== false) {
      const result = await applyConfig(storage, config, { clock }).catch((error: unknown) => {
        if (error instanceof ApplyConflictError) {
          for (const problem of error.problems) ctx.output.err(`${config.file ?? 'built-in defaults'}: ${problem}`);
          throw new CliError('the config collides with database-managed objects; nothing was applied, the server did not start');
        }
        throw error;
      });
      logger.info({ changes: result.plan.changes.length }, result.applied ? 'config applied' : 'config already applied');
    }
    const app = await createApp(config, { storage, clock, logger });
    const url = await app.start();
    // `url` is the listen address (tests and scripts read it); people open the base URL.
    logger.info({ url, base_url: config.server.baseUrl }, `idp listening on ${url}, open ${config.server.baseUrl}`);
    const signal = await waitForShutdown();
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    await app.stop({ timeoutMs: drainTimeoutMs });
    logger.info('stopped');
    return 0;
  } finally {
    await storage.close();
  }
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new CliError(`--port must be an integer from 0 to 65535, got "${value}"`, 2);
  return port;
}

function processSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve(signal);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
