import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { BackgroundJobState, ClientGrantType, NewEventRecord } from '../model/index.js';
import type { ConfigDrift } from '../gitops/index.js';
import { signInOutcome } from './sign-in-outcome.js';
import { withinTimeout } from './within-timeout.js';

/** One finished HTTP request, as the server's response hook sees it. */
export interface ObservedRequest {
  /** The matched route's template (`/api/admin/users/{sub}`), or null when no route matched. */
  route: string | null;
  method: string;
  status: number;
  seconds: number;
}

export interface AppMetrics {
  /** This App's registry: nothing is registered in prom-client's global one. */
  registry: Registry;
  /** The event log's listener (sign-ins). */
  onEvents: (events: readonly NewEventRecord[]) => void;
  /** The token endpoint's listener. */
  onTokensIssued: (grantType: ClientGrantType) => void;
  /** The HTTP server's listener. */
  observeRequest: (request: ObservedRequest) => void;
}

/** How long a scrape waits for the database before a gauge keeps its last value. */
export const scrapeReadTimeoutMs = 2000;

/** A client may send any method; only these become label values (one series each), the rest are `other`. */
const knownMethods = new Set(['get', 'head', 'post', 'put', 'patch', 'delete', 'options']);

const jobStates: readonly BackgroundJobState[] = ['pending', 'running', 'succeeded', 'failed'];

/**
 * The series of docs/operations.md, "Metrics", on a registry of this App.
 * Counters move through the listeners the areas call (events, token
 * responses, HTTP responses); the job and config gauges read the database
 * when scraped, each bounded by scrapeReadTimeoutMs: a gauge whose read
 * fails or times out keeps its last value (the failure is logged), and the
 * rest of the scrape goes on.
 */
export function createAppMetrics(deps: {
  countJobs: () => Promise<Record<BackgroundJobState, number>>;
  configDrift: () => Promise<ConfigDrift>;
  logger: Logger;
}): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'idp_http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to sending its response, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const signIns = new Counter({
    name: 'idp_sign_ins_total',
    help: 'Sign-ins by method (password, passkey, upstream, second_factor) and outcome (success, failure).',
    labelNames: ['method', 'outcome'] as const,
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'idp_tokens_issued_total',
    help: 'Successful token endpoint responses by grant type.',
    labelNames: ['grant_type'] as const,
    registers: [registry],
  });

  /** Runs `read` at scrape time; on failure the gauge keeps the value of the last scrape that could read. */
  const scraped = <T>(what: string, read: () => Promise<T>, write: (gauge: Gauge, value: T) => void) =>
    async function collect(this: Gauge) {
      try {
        write(this, await withinTimeout(read(), scrapeReadTimeoutMs));
      } catch (error) {
        deps.logger.warn({ err: error }, `metrics: cannot read ${what}`);
      }
    };
  new Gauge({
    name: 'idp_jobs',
    help: 'Background jobs in the database by state.',
    labelNames: ['state'],
    registers: [registry],
    collect: scraped('the background jobs', deps.countJobs, (gauge, counts) => {
      for (const state of jobStates) gauge.set({ state }, counts[state]);
    }),
  });
  // The two config gauges read one settings row; prom-client collects a scrape's gauges together, so they share the read.
  const configDrift = whileUnderway(deps.configDrift);
  new Gauge({
    name: 'idp_config_drift',
    help: '1 when the last check found the database differing from the config file, else 0 (also before the first check).',
    registers: [registry],
    collect: scraped('the config drift', configDrift, (gauge, { drift }) => {
      gauge.set(drift === true ? 1 : 0);
    }),
  });
  new Gauge({
    name: 'idp_config_applied_timestamp_seconds',
    help: 'When an apply last changed the database, in seconds since the epoch (0 before the first).',
    registers: [registry],
    collect: scraped('the last apply', configDrift, (gauge, { appliedAt }) => {
      gauge.set((appliedAt ?? 0) / 1000);
    }),
  });

  return {
    registry,
    onEvents: (events) => {
      for (const event of events) {
        const counted = signInOutcome(event);
        if (counted) signIns.inc(counted);
      }
    },
    onTokensIssued: (grantType) => {
      tokens.inc({ grant_type: grantType });
    },
    observeRequest: ({ route, method, status, seconds }) => {
      const label = knownMethods.has(method) ? method : 'other';
      requests.observe({ route: route ?? 'unmatched', method: label, status }, seconds);
    },
  };
}

/** `read`, shared by the calls made while one is under way. */
function whileUnderway<T>(read: () => Promise<T>): () => Promise<T> {
  let underway: Promise<T> | null = null;
  return () =>
    (underway ??= read().finally(() => {
      underway = null;
    }));
}
