import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { TrustProxy } from '../config/types.js';
import type { ForwardAuth, ForwardAuthAnswer } from '../forward-auth/forward-auth-service.js';
import type { ObservedRequest } from '../operations/index.js';
import { createSessionCookieCache } from './auth/session-cookie-cache.js';
import { addressIsTrustedProxy } from './client-address.js';
import type { HttpServer } from './create-server.js';
import { logRequest } from './log-request.js';
import {
  forwardAuthPaths,
  identityHeaders,
  verdictsPassedOn,
  type ForwardAuthPath,
  type OriginalReading,
} from './routes/forward-auth-routes.js';

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/** Distinct proxy addresses whose trust is remembered (a deployment has a handful). */
const maxRememberedPeers = 1_000;
/** Original requests remembered once read, and the longest header text remembered: a few megabytes at most. */
const maxRememberedReadings = 5_000;
const maxRememberedReadingText = 1_024;

/**
 * A reverse proxy asks idp about every request of every protected app
 * (docs/forward-auth.md), and nearly every answer is the same: 200 with the
 * identity headers. That answer is written here, on the listener, before
 * hapi's request lifecycle, whose extension points, validation and
 * response machinery cost more than the answer itself.
 *
 * It only ever writes an answer the hapi route would write: a GET of the
 * exact route path, from a peer server.trust_proxy names, whose headers pass
 * the route's own joi schema and reading of the original request, and that
 * the forward-auth service allows. Anything else (an untrusted caller, bad
 * headers, no session, a denial, an unknown app, a failure) goes on to hapi,
 * where the route answers it with every rule of the JSON API; a verdict
 * reached here goes along (verdictsPassedOn), so the service is asked once.
 * `server.inject` (the storage tests) never passes here; the process tests
 * and test/http/forward-auth-fast-path.storage.test.ts send real requests.
 */
export function installForwardAuthFastPath(
  server: HttpServer,
  deps: {
    forwardAuth: () => ForwardAuth;
    logger: Logger;
    securityHeaders: Record<string, string>;
    /** The metrics' request hook (metrics.enabled), which hapi's response event would have called. */
    observeRequest?: (request: ObservedRequest) => void;
  },
): void {
  const listener = server.listener;
  const hapiListeners = listener.listeners('request') as RequestListener[];
  if (hapiListeners.length !== 1)
    throw new Error('the forward-auth fast path expects hapi as the only request listener');
  const [toHapi] = hapiListeners;
  const sessionIdOf = createSessionCookieCache();
  // The service hands out the same verdict object while it stands (forward-auth-service.ts), so its answer's header block is built once.
  const answerHeaders = new WeakMap<ForwardAuthAnswer, Record<string, string>>();
  const headersOf = (verdict: ForwardAuthAnswer & { outcome: 'allow' }) => {
    let headers = answerHeaders.get(verdict);
    if (!headers) {
      headers = {
        'cache-control': 'no-store',
        ...deps.securityHeaders,
        ...identityHeaders(verdict.headers),
        'content-length': '0',
      };
      answerHeaders.set(verdict, headers);
    }
    return headers;
  };
  const trustedPeer = createPeerTrust(() => server.app.trustProxy?.() ?? false);
  // The proxy asks about the same URLs again and again (every user loads the same assets), and the
  // reading is a function of those header values alone: each text passes the schema and is read once.
  const readings = new Map<string, OriginalReading>();
  const originalOf = (path: ForwardAuthPath, headers: IncomingMessage['headers']): OriginalReading | null => {
    const route = forwardAuthPaths[path];
    const readFrom = route.readFrom(headers);
    const text = readFrom === undefined ? undefined : `${path} ${readFrom}`;
    let reading = text === undefined ? undefined : readings.get(text);
    if (reading) return reading;
    if (route.headers.validate(headers).error) return null;
    reading = route.original(headers);
    if (text !== undefined && text.length <= maxRememberedReadingText) {
      if (readings.size >= maxRememberedReadings) readings.delete(readings.keys().next().value as string);
      readings.set(text, reading);
    }
    return reading;
  };

  async function answer(request: IncomingMessage, response: ServerResponse, path: ForwardAuthPath) {
    const receivedAt = Date.now();
    if (!trustedPeer(request.socket.remoteAddress ?? '')) return false;
    const original = originalOf(path, request.headers);
    if (!original) return false;
    const verdict = await deps
      .forwardAuth()
      .check(original.request, await sessionIdOf({ headers: request.headers, server }));
    if (verdict.outcome !== 'allow') {
      verdictsPassedOn.set(request, verdict);
      return false;
    }
    response.writeHead(200, headersOf(verdict));
    response.end();
    logRequest(deps.logger, { method: 'GET', path, status: 200, receivedAt });
    deps.observeRequest?.({ route: path, method: 'get', status: 200, seconds: (Date.now() - receivedAt) / 1000 });
    return true;
  }

  listener.removeAllListeners('request');
  listener.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const path = request.method === 'GET' ? request.url : undefined;
    if (path !== '/api/forward-auth' && path !== '/api/auth-request') {
      toHapi(request, response);
      return;
    }
    answer(request, response, path).then(
      (answered) => {
        if (!answered) toHapi(request, response);
      },
      // The route reads the original request again and answers the error (a 400, or a 500 it logs).
      () => toHapi(request, response),
    );
  });
}

/** peerIsTrustedProxy by the peer's address, remembered until server.trust_proxy changes (a reload replaces it). */
function createPeerTrust(trustProxy: () => TrustProxy): (address: string) => boolean {
  let rememberedFor: TrustProxy | undefined;
  const remembered = new Map<string, boolean>();
  return (address) => {
    const current = trustProxy();
    if (current !== rememberedFor) {
      remembered.clear();
      rememberedFor = current;
    }
    let trusted = remembered.get(address);
    if (trusted === undefined) {
      trusted = addressIsTrustedProxy(address, current);
      if (remembered.size < maxRememberedPeers) remembered.set(address, trusted);
    }
    return trusted;
  };
}
