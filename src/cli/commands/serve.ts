import { createServer } from 'node:net';
import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { loadCommandConfig } from '../load-command-config.js';
import { openCommandFoundation } from '../open-command-foundation.js';
import { createApp } from '../../app.js';
import { loadConfig, type Config, type LoadResult } from '../../config/index.js';
import { defaultBaseUrl } from '../../config/normalize-config.js';
import { watchConfigFile } from '../../config/watch-config-file.js';
import { applyConfig, ApplyConflictError, createConfigReloader } from '../../gitops/index.js';
import { createLogger } from '../../logger.js';
import type { HttpDeps } from '../../http/http-deps.js';
import { usesBuiltinUi } from '../../web/index.js';
import type { Logger } from 'pino';

export interface ServeOptions {
  config?: string;
  host?: string;
  port?: string;
  /** commander's --no-apply sets this to false. */
  apply?: boolean;
  watch?: boolean;
}

/** What `serve` hears from outside: a request to stop, and requests to reload (SIGHUP). */
export interface ServeSignals {
  /** Resolves with the signal's name when the server should stop. */
  shutdown(): Promise<string>;
  /** Calls `listener` on each reload request; returns the unsubscribe. */
  onReload(listener: () => void): () => void;
}

/** How long a shutdown waits for in-flight requests before closing them. */
const drainTimeoutMs = 10_000;

/**
 * `idp serve`: load the config, open and migrate the database, apply the
 * config (unless --no-apply), start the server and log one line with its
 * URL. SIGHUP (and, with --watch, a change of the file) reloads the config
 * without a restart (src/gitops/config-reloader.ts); SIGTERM or SIGINT
 * drain in-flight requests and close the database.
 */
export async function runServe(
  ctx: CliContext,
  opts: ServeOptions,
  signals: ServeSignals = processSignals(),
): Promise<number> {
  // From the first moment to the last: a SIGHUP must never kill the process (Node's default), nor be lost while it starts.
  let reloadsDuringStart = 0;
  let onReload: () => void = () => reloadsDuringStart++;
  const unsubscribe = signals.onReload(() => onReload());
  try {
    const port = parsePort(opts.port);
    const loaded = await loadCommandConfig(ctx, opts.config);
    if (opts.watch && loaded.file === null)
      throw new CliError('--watch needs a config file (-c FILE, $IDP_CONFIG or ./idp.yaml)', 2);
    const listen = await listenAddress(loaded, opts.host, port);
    const config = listen(loaded);
    const logger = createLogger(config.logging);
    const { storage, clock } = await openCommandFoundation(config, ctx.cwd);
    try {
      if (opts.apply !== false) {
        const result = await applyConfig(storage, config, { clock }).catch((error: unknown) => {
          if (error instanceof ApplyConflictError) {
            for (const problem of error.problems) ctx.output.err(`${config.file ?? 'built-in defaults'}: ${problem}`);
            throw new CliError(
              'the config collides with database-managed objects; nothing was applied, the server did not start',
            );
          }
          throw error;
        });
        logger.info(
          { changes: result.plan.changes.length },
          result.applied ? 'config applied' : 'config already applied',
        );
      }
      const mismatch = portMismatch(config);
      if (mismatch) logger.warn({ base_url: config.server.baseUrl, port: config.server.port }, mismatch);
      const app = await createApp(config, { storage, clock, logger });
      const url = await app.start();
      // Before the listening line, which scripts take as "started": from it on, a SIGHUP is a plain reload.
      await announceFirstAdminSetup(app.deps, logger);
      // `url` is the listen address (tests and scripts read it); people open the base URL.
      logger.info({ url, base_url: config.server.baseUrl }, `idp listening on ${url}, open ${config.server.baseUrl}`);

      const load = async (): Promise<LoadResult> => {
        const result = await loadConfig({ file: config.file, env: ctx.env, cwd: ctx.cwd });
        return result.ok ? { ...result, config: listen(result.config) } : result;
      };
      const reloader = createConfigReloader({
        storage,
        clock,
        logger,
        running: config,
        load,
        apply: opts.apply !== false,
        onApplied: () => app.deps.protocol.engine.clients.refresh(),
      });
      onReload = () => void reloader.reload('SIGHUP');
      const watcher =
        opts.watch && config.file
          ? await watchConfigFile({
              file: config.file,
              onChange: () => void reloader.reload('file changed'),
              onError: (error) =>
                logger.error({ err: error }, `--watch: cannot watch ${config.file}: ${error.message}`),
            })
          : null;
      if (watcher) logger.info({ file: config.file }, `watching ${config.file} for changes`);
      if (reloadsDuringStart > 0) {
        logger.info('SIGHUP arrived while the server was starting: reloading the config now');
        void reloader.reload('SIGHUP during start-up');
      }

      const signal = await signals.shutdown();
      onReload = () => logger.info('SIGHUP ignored: the server is shutting down');
      logger.info({ signal }, 'shutting down: draining in-flight requests');
      watcher?.close();
      await reloader.idle();
      await app.stop({ timeoutMs: drainTimeoutMs });
      logger.info('stopped');
      return 0;
    } finally {
      await storage.close();
    }
  } finally {
    unsubscribe();
  }
}

/**
 * While no active admin exists (none in the file, none in the database),
 * each start prints a one-time link to /setup, valid for an hour, which
 * creates the first admin (docs/cli-admin.md, "The first admin"). With an
 * operator's front end /setup is not idp's: an admin in the file's users is the way.
 */
async function announceFirstAdminSetup(deps: HttpDeps, logger: Logger): Promise<void> {
  if (!usesBuiltinUi(deps.config.frontend)) return;
  const token = await deps.admin.firstAdmin.issue();
  if (token === null) return;
  const link = `${deps.config.server.baseUrl}/setup?token=${token}`;
  logger.warn({ setup_url: link }, `no admin exists yet: open ${link} within an hour to create the first one`);
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new CliError(`--port must be an integer from 0 to 65535, got "${value}"`, 2);
  return port;
}

/**
 * --host and --port over the file's server group, the same at start and at
 * every reload. A base URL the file does not set follows them
 * (defaultBaseUrl), so the issuer and the printed address are where the
 * server is; port 0 is resolved to a free port first, since the issuer must
 * be known before the server listens.
 */
async function listenAddress(
  loaded: Config,
  hostFlag: string | undefined,
  portFlag: number | undefined,
): Promise<(config: Config) => Config> {
  const host = hostFlag ?? loaded.server.host;
  let port = portFlag ?? loaded.server.port;
  if (port === 0 && loaded.server.baseUrlDerived) port = await freePort(host);
  return (config) => ({
    ...config,
    server: {
      ...config.server,
      host,
      port,
      baseUrl: config.server.baseUrlDerived ? defaultBaseUrl(host, port) : config.server.baseUrl,
    },
  });
}

/**
 * A base URL set in the file stays as written whatever --port says. When it
 * names a port (or a local host, reached without a proxy) other than the
 * listening one, browsers open one port and the server listens on another,
 * and sign-ins from the listening port are refused as cross-site: worth a
 * warning that names both. A public URL without a port is the reverse-proxy
 * setup, and says nothing about the listening port.
 */
function portMismatch({ server }: Config): string | null {
  if (server.baseUrlDerived) return null;
  const url = new URL(server.baseUrl);
  const local = url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\./.test(url.hostname);
  if (url.port === '' && !local) return null;
  const named = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (named === server.port) return null;
  const listening = defaultBaseUrl(server.host, server.port);
  return `server.base_url ${server.baseUrl} names port ${String(named)}, but idp listens on port ${String(server.port)}: browsers at ${server.baseUrl} reach no server unless a proxy forwards that port here, and sign-ins from ${listening} are refused as cross-site; set server.base_url to the address people open, or leave it out to follow the port`;
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function processSignals(): ServeSignals {
  return {
    shutdown: () =>
      new Promise((resolve) => {
        const stop = (signal: string) => {
          process.off('SIGTERM', stop);
          process.off('SIGINT', stop);
          resolve(signal);
        };
        process.on('SIGTERM', stop);
        process.on('SIGINT', stop);
      }),
    onReload(listener) {
      process.on('SIGHUP', listener);
      return () => process.off('SIGHUP', listener);
    },
  };
}
