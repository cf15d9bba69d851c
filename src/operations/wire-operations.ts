import type { Logger } from 'pino';
import type { Foundation } from '../area-wiring.js';
import { readConfigDrift, type ConfigDrift } from '../gitops/index.js';
import { createAppMetrics, type AppMetrics } from './app-metrics.js';
import { createMetricsListener, type MetricsListener } from './metrics-listener.js';
import { createReadiness, type Readiness } from './readiness.js';

export interface OperationsServices {
  /** GET /api/health/ready. */
  readiness: Readiness;
  /** The last drift check and apply, as any instance recorded them (the drift gauge, the admin console's overview). */
  configDrift(): Promise<ConfigDrift>;
  /** The HTTP server's response listener; null without metrics, so that the server adds no hook. */
  metrics: Pick<AppMetrics, 'observeRequest'> | null;
}

/**
 * The operations area: readiness, the config drift read back, and, with
 * metrics.enabled, the App's metrics (one prom-client registry per App) and
 * their listener, which starts and stops with the App. Built before the
 * other areas: their listeners (`onEvents`, `onTokensIssued`) feed it.
 */
export function wireOperations(foundation: Foundation, logger: Logger) {
  const { config, storage } = foundation;
  const { db, repositories } = storage;
  const configDrift = () => readConfigDrift(db, repositories.settings);
  const metrics = config.metrics.enabled
    ? createAppMetrics({ countJobs: () => repositories.backgroundJobs.countByState(db), configDrift, logger })
    : null;
  const listener: MetricsListener | null = metrics
    ? createMetricsListener({ registry: metrics.registry, ...config.metrics, logger })
    : null;
  const services: OperationsServices = {
    readiness: createReadiness({ ping: () => storage.ping(), migrationStatus: () => storage.migrationStatus() }),
    configDrift,
    metrics,
  };
  return {
    services,
    /** The event log's listener, when there are metrics. */
    onEvents: metrics?.onEvents,
    onTokensIssued: metrics ? metrics.onTokensIssued : () => {},
    listener,
  };
}
