import type { Lifecycle, ResponseObject } from '@hapi/hapi';
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
  /** onRequest: answers the preflight (Fetch §4.8, OPTIONS) of a path with CORS rows; other OPTIONS requests stay 404. */
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
    const methods = byPath.get(row.path) ?? new Map<string, RouteCors>();
    methods.set(row.method, row.cors);
    byPath.set(row.path, methods);
  }

  /** The Access-Control-Allow-Origin value for this mode and Origin, or null when the origin may not read. */
  async function allowOrigin(mode: RouteCors, origin: string | undefined): Promise<string | null> {
    if (mode === 'any-origin') return '*';
    if (origin === undefined) return null;
    const known = await origins();
    return (mode === 'client-origins' ? known.all : known.publicClients).has(origin) ? origin : null;
  }

  function varyUnlessAny(response: ResponseObject, mode: RouteCors): void {
    if (mode !== 'any-origin') response.vary('origin');
  }

  return {
    async preflight(request, h) {
      if (request.method !== 'options') return h.continue;
      const methods = byPath.get(request.path);
      const requested = request.headers['access-control-request-method'] as string | undefined;
      if (!methods || requested === undefined) return h.continue;
      const mode = methods.get(requested);
      const reply = h.response().code(204);
      if (mode === undefined) return reply.takeover();
      varyUnlessAny(reply, mode);
      const origin = await allowOrigin(mode, request.headers.origin as string | undefined);
      if (origin === null) return reply.takeover();
      return reply
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-methods', [...methods.keys()].join(', '))
        .header('access-control-allow-headers', allowedHeaders)
        .header('access-control-max-age', String(preflightMaxAgeSeconds))
        .takeover();
    },

    responseHeaders: (mode) => async (request, h) => {
      const response = request.response as ResponseObject;
      varyUnlessAny(response, mode);
      const origin = await allowOrigin(mode, request.headers.origin as string | undefined);
      if (origin === null) return h.continue;
      response.header('access-control-allow-origin', origin);
      if (mode !== 'any-origin') response.header('access-control-expose-headers', exposedHeaders);
      return h.continue;
    },
  };
}
