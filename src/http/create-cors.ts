import type { Lifecycle, ResponseObject, ResponseToolkit } from '@hapi/hapi';
import type { ClientOrigins } from '../clients/index.js';
import type { RouteCors, RouteDefinition } from './route-definition.js';

/** Besides the CORS-safelisted ones: the bearer token (RFC 6750 §2.1) and the body's type. */
const allowedHeaders = 'Authorization, Content-Type';
/** So that an app can read the RFC 6750 §3 challenge of a 401 (invalid_token, insufficient_scope). */
const exposedHeaders = 'WWW-Authenticate';
/**
 * Chromium's cap. A cached preflight cannot outlast a client's removal in
 * effect: every actual response is checked against the current origins again.
 */
const preflightMaxAgeSeconds = 7200;

export interface Cors {
  /** onRequest: answers the preflight (the Fetch standard's CORS-preflight request, OPTIONS) of a path with CORS rows; other OPTIONS requests stay 404. */
  preflight: Lifecycle.Method;
  /** onPreResponse of one CORS row: the headers of its actual responses, errors included. */
  responseHeaders(mode: RouteCors): Lifecycle.Method;
}

/**
 * CORS for the routes of the table that carry a mode (RouteCors): `*` for
 * public documents, else the request's Origin echoed when it is the origin
 * of a registered redirect URI (of a public client, for the modes that say
 * so), with `Vary: Origin`. Access-Control-Allow-Credentials is never sent,
 * so a cross-origin request never carries the session cookie. `origins`
 * comes from the client directory and follows client changes within its
 * staleness bound (about a second).
 */
export function createCors(routes: readonly RouteDefinition[], origins: () => Promise<ClientOrigins>): Cors {
  /** path → METHOD → mode. CORS paths are literal (no parameters), so the request's path finds them. */
  const byPath = new Map<string, Map<string, RouteCors>>();
  for (const row of routes) {
    if (!row.cors) continue;
    if (row.path.includes('{')) throw new Error(`${row.method} ${row.path}: a CORS row needs a literal path`);
    const methods = byPath.get(row.path) ?? new Map<string, RouteCors>();
    methods.set(row.method, row.cors);
    byPath.set(row.path, methods);
  }

  /** Whether a client's app runs at this origin; a directory that cannot be read (the database is down) allows none. */
  async function isClientOrigin(mode: Exclude<RouteCors, 'any-origin'>, origin: string): Promise<boolean> {
    try {
      const known = await origins();
      return (mode === 'client-origins' ? known.all : known.publicClients).has(origin);
    } catch {
      return false;
    }
  }

  async function answerPreflight(
    h: ResponseToolkit,
    methods: Map<string, RouteCors>,
    mode: RouteCors | undefined,
    origin: string | undefined,
  ) {
    const reply = h.response().code(204);
    if (mode === undefined) return reply.takeover();
    if (mode !== 'any-origin') reply.vary('origin');
    const allowed =
      mode === 'any-origin' ? '*' : origin !== undefined && (await isClientOrigin(mode, origin)) ? origin : null;
    if (allowed === null) return reply.takeover();
    return reply
      .header('access-control-allow-origin', allowed)
      .header('access-control-allow-methods', [...methods.keys()].join(', '))
      .header('access-control-allow-headers', allowedHeaders)
      .header('access-control-max-age', String(preflightMaxAgeSeconds))
      .takeover();
  }

  return {
    preflight(request, h) {
      // Every request passes here: all but a preflight of a CORS path leave at once.
      if (request.method !== 'options') return h.continue;
      const methods = byPath.get(request.path);
      const requested = request.headers['access-control-request-method'] as string | undefined;
      if (!methods || requested === undefined) return h.continue;
      return answerPreflight(h, methods, methods.get(requested), request.headers.origin as string | undefined);
    },

    responseHeaders(mode) {
      if (mode === 'any-origin') {
        return (request, h) => {
          (request.response as ResponseObject).header('access-control-allow-origin', '*');
          return h.continue;
        };
      }
      return (request, h) => {
        const response = request.response as ResponseObject;
        response.vary('origin');
        const origin = request.headers.origin as string | undefined;
        // Servers send no Origin: no lookup, and nothing asynchronous, on their path.
        if (origin === undefined) return h.continue;
        return isClientOrigin(mode, origin).then((allowed) => {
          if (allowed)
            response
              .header('access-control-allow-origin', origin)
              .header('access-control-expose-headers', exposedHeaders);
          return h.continue;
        });
      };
    },
  };
}
