import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

export interface MetricsListener {
  /** Listens on host:port; resolves with the scrape URL (port 0 picks a free port). */
  start(): Promise<string>;
  /** Stops listening and closes open scrape connections. */
  stop(): Promise<void>;
  /** The scrape URL while listening, else null. */
  url(): string | null;
}

/**
 * The metrics listener (metrics.host, metrics.port): a bare node:http
 * server beside hapi, so a scrape never waits in the main server's queue
 * nor passes its routes, and the series stay off the public address.
 * `GET /metrics` answers the registry in the Prometheus text format; any
 * other path 404, any other method 405. No auth: whoever reaches the port
 * may read the series, which hold counts and route templates only (bind it
 * to loopback or a private network: docs/operations.md).
 */
export function createMetricsListener(deps: {
  registry: Registry;
  host: string;
  port: number;
  logger: Logger;
}): MetricsListener {
  const { registry, logger } = deps;
  let server: Server | null = null;
  let url: string | null = null;

  const handle = createServer((request, response) => {
    // A server's request always has a URL (only a client's response lacks one).
    const path = String(request.url).split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => {
        logger.error({ err: error }, 'metrics: the scrape failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be collected\n');
      },
    );
  });

  return {
    start() {
      return new Promise((resolve, reject) => {
        handle.once('error', reject);
        handle.listen(deps.port, deps.host, () => {
          handle.off('error', reject);
          server = handle;
          const { address, port } = handle.address() as AddressInfo;
          const host = address.includes(':') ? `[${address}]` : address;
          url = `http://${host}:${String(port)}/metrics`;
          logger.info({ metrics_url: url }, `metrics listening on ${url}`);
          resolve(url);
        });
      });
    },
    async stop() {
      const running = server;
      server = null;
      url = null;
      if (!running) return;
      running.closeAllConnections();
      await new Promise<void>((resolve) => running.close(() => resolve()));
    },
    url: () => url,
  };
}
