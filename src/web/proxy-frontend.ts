import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { fillHtmlVariables } from './html-variables.js';

export interface ProxyRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Readable | null;
  clientAddress: string;
  /** The scheme the browser used (for X-Forwarded-Proto). */
  protocol: 'http' | 'https';
  /** Settles when the browser's connection closes: an answer not yet complete is abandoned upstream too. */
  abandoned?: Promise<void>;
}

/** The front end was silent for longer than the proxy waits (the browser gets 504). */
export class ProxyTimeoutError extends Error {
  constructor(upstream: string, ms: number) {
    super(`the front end at ${upstream} sent nothing for ${ms / 1000} s`);
    this.name = 'ProxyTimeoutError';
  }
}

/** How long the front end may stay silent (before its answer starts, or in the middle of it). */
const idleTimeoutMs = 30_000;

export interface ProxyResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Readable | string;
}

/** RFC 9110 §7.6.1: connection-specific headers are not forwarded. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !hopByHop.has(name.toLowerCase())) out[name] = value;
  }
  return out;
}

/**
 * `proxy` mode: forwards a non-API request to the developer's own front end
 * (for example a dev server) and streams the answer back. HTML answers are
 * read whole so that html_variables apply to them too; everything else is
 * streamed. The upstream is asked not to compress, so HTML can be rewritten.
 * A front end silent for idleTimeoutMs fails the request (ProxyTimeoutError),
 * and a browser that leaves ends the upstream request.
 *
 * Hand-written on node:http rather than @hapi/h2o2: measured on the same
 * machine, h2o2 (through Wreck) cost about twice the CPU per proxied
 * request (docs/oidc.md, "Frontend serving").
 */
export function createProxyFrontend(
  options: { upstream: string; variables: Readonly<Record<string, string>> },
  timeoutMs = idleTimeoutMs,
) {
  const upstream = new URL(options.upstream);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const client = upstream.protocol === 'https:' ? https : http;

  return {
    upstream: upstream.href,
    forward(request: ProxyRequest): Promise<ProxyResponse> {
      const headers = forwardable(request.headers);
      headers['accept-encoding'] = 'identity';
      headers['x-forwarded-for'] = request.clientAddress;
      headers['x-forwarded-proto'] = request.protocol;
      if (request.headers.host) headers['x-forwarded-host'] = request.headers.host;
      return new Promise((resolve, reject) => {
        let incoming: http.IncomingMessage | null = null;
        const outgoing = client.request(
          {
            protocol: upstream.protocol,
            hostname: upstream.hostname,
            port: upstream.port,
            method: request.method,
            path: `${basePath}${request.url}`,
            headers: { ...headers, host: upstream.host },
          },
          (answer) => {
            incoming = answer;
            const responseHeaders = forwardable(incoming.headers);
            const status = incoming.statusCode ?? 502;
            if (!(incoming.headers['content-type'] ?? '').startsWith('text/html')) {
              resolve({ status, headers: responseHeaders, body: incoming });
              return;
            }
            const chunks: Buffer[] = [];
            incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
            incoming.on('error', reject);
            incoming.on('end', () => {
              delete responseHeaders['content-length'];
              const html = fillHtmlVariables(Buffer.concat(chunks).toString('utf8'), options.variables);
              resolve({ status, headers: responseHeaders, body: html });
            });
          },
        );
        outgoing.on('error', reject);
        outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new ProxyTimeoutError(upstream.href, timeoutMs)));
        void request.abandoned?.then(() => {
          if (!incoming?.complete) outgoing.destroy();
        });
        if (request.body) request.body.pipe(outgoing);
        else outgoing.end();
      });
    },
  };
}
