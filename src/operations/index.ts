/**
 * Running idp in production (docs/operations.md): readiness (the database
 * answers, its migrations are current), the config drift that the
 * scheduled `config-drift` job records (src/gitops/config-drift.ts), read
 * back for every instance, and the Prometheus metrics.
 *
 * Metrics flow: wireOperations builds one prom-client Registry per App;
 * the areas feed it through listeners (the event log's committed sign-in
 * events, the token endpoint's responses, the HTTP server's response hook:
 * route templates only); the job and config gauges read the database at
 * scrape time; createMetricsListener serves GET /metrics on a socket of
 * its own (metrics.host, metrics.port).
 */
export { wireOperations, type OperationsServices } from './wire-operations.js';
export { createAppMetrics, scrapeReadTimeoutMs, type AppMetrics, type ObservedRequest } from './app-metrics.js';
export { createMetricsListener, type MetricsListener } from './metrics-listener.js';
export { createReadiness, type Readiness, type ReadinessAnswer } from './readiness.js';
export { signInOutcome, type SignInMethod, type SignInOutcome } from './sign-in-outcome.js';
export { withinTimeout } from './within-timeout.js';
