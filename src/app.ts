import type { Logger } from 'pino';
import { wireAccounts } from './accounts/wire-accounts.js';
import { wireAdmin } from './admin/wire-admin.js';
import type { Foundation } from './area-wiring.js';
import type { Clock } from './clock.js';
import type { Config } from './config/types.js';
import { wireFederation } from './federation/index.js';
import { wireForwardAuth } from './forward-auth/wire-forward-auth.js';
import { createServer, serverUrl, type HttpServer } from './http/create-server.js';
import type { HttpDeps } from './http/http-deps.js';
import { routeTable } from './http/routes.js';
import { wireInteraction } from './interaction/wire-interaction.js';
import { createSigningPool, type SigningPool } from './keys/index.js';
import { createFoundation, createFoundationScheduler, prepareAreas } from './foundation.js';
import { createLogger } from './logger.js';
import { wireProtocol } from './oidc/wire-protocol.js';
import type { Scheduler } from './scheduler/index.js';
import { logoutOutbox, mailOutbox, wireJobs } from './scheduler/wire-jobs.js';
import type { Storage } from './storage/repositories.js';
import { wireWeb } from './web/wire-web.js';
import { wireOperations, type MetricsListener } from './operations/index.js';

/**
 * The composition root: config → storage → operations (its metrics
 * listen to the others) → the areas → server → jobs. Each area builds its services in src/<area>/wire-<area>.ts
 * (docs/architecture.md, "How to add a service"); this file orders the areas
 * and hands each what it needs of the others.
 */

export type { Foundation } from './area-wiring.js';
export { createFoundation, createFoundationScheduler, openStorage } from './foundation.js';

export interface App extends Foundation {
  server: HttpServer;
  deps: HttpDeps;
  scheduler: Scheduler;
  logger: Logger;
  /** Signs every JWT off the main thread; closed by stop(). */
  signingPool: SigningPool;
  /** The metrics listener (metrics.enabled), started and stopped with the server; null without metrics. */
  metrics: MetricsListener | null;
  /** Starts listening; resolves with the real URL (port 0 picks a free port). */
  start(): Promise<string>;
  /** Drains in-flight requests (up to `timeoutMs`), stops the jobs and the signing pool, then closes the storage it opened. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
  /** An already open storage (tests, `serve`), left open by stop(); otherwise one is opened from config.database and closed by stop(). */
  storage?: Storage;
  /** How long each call to an upstream identity provider may take (default 10 s; tests shorten it). */
  upstreamTimeoutMs?: number;
  /** How long a back-channel logout receiver may take to answer (default 10 s; tests shorten it). */
  backchannelLogoutTimeoutMs?: number;
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const foundation = createFoundation(config, options);
  const { storage, clock } = foundation;
  const logger = options.logger ?? createLogger(config.logging);
  // First: the metrics' listeners go into the areas below.
  const operations = wireOperations(foundation, logger);
  const { base, events, cookiePassword } = await prepareAreas(foundation, logger, operations.onEvents);
  const signingPool = createSigningPool();
  // Built before the areas: the mail they queue is one of its jobs.
  const scheduler = createFoundationScheduler(foundation, logger);

  // The areas, each after those it builds on.
  const accounts = wireAccounts(base, { events, outbox: mailOutbox(scheduler), logoutOutbox: logoutOutbox(scheduler) });
  const interaction = wireInteraction(base, { accounts, events, cookiePassword });
  const protocol = await wireProtocol(base, {
    signInSteps: interaction.signInSteps,
    signingPool,
    events,
    onTokensIssued: operations.onTokensIssued,
    backchannelLogoutTimeoutMs: options.backchannelLogoutTimeoutMs,
  });
  const federation = wireFederation(base, { accounts, interaction, events, timeoutMs: options.upstreamTimeoutMs });
  const admin = wireAdmin(base, {
    accounts,
    events,
    connections: federation.services.connections,
    configDrift: () => operations.services.configDrift(),
  });
  const web = wireWeb(base);
  const forwardAuth = wireForwardAuth(base, { cachedReads: protocol.services.engine.cachedReads, events });
  wireJobs(scheduler, { mailSend: accounts.mailSend, backchannelLogout: protocol.backchannelLogout });

  const deps: HttpDeps = {
    config,
    clock,
    logger,
    pingDatabase: () => storage.ping(),
    cookiePassword,
    accounts: accounts.services,
    interaction: interaction.services,
    protocol: protocol.services,
    federation: federation.services,
    admin: admin.services,
    web: web.services,
    forwardAuth: forwardAuth.services,
    operations: operations.services,
  };
  const server = await createServer(deps, routeTable(config));

  let stopKeyRefresh = () => {};
  return {
    ...foundation,
    server,
    deps,
    scheduler,
    logger,
    signingPool,
    metrics: operations.listener,
    async start() {
      // Before the server: a metrics port that is taken stops the start before anything listens.
      await operations.listener?.start();
      await server.start().catch(async (error: unknown) => {
        await operations.listener?.stop();
        throw error;
      });
      stopKeyRefresh = protocol.services.engine.keys.refreshPeriodically();
      scheduler.start();
      return serverUrl(server);
    },
    async stop({ timeoutMs = 10_000 } = {}) {
      stopKeyRefresh();
      await server.stop({ timeout: timeoutMs });
      await operations.listener?.stop();
      await scheduler.stop({ graceMs: timeoutMs });
      accounts.mailSend?.close();
      await signingPool.close();
      if (!options.storage) await storage.close();
    },
  };
}
