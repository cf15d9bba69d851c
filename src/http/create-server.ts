import Hapi, { type Lifecycle, type RouteOptions, type ServerRoute } from '@hapi/hapi';
import Inert from '@hapi/inert';
import type { HttpDeps } from './http-deps.js';
import type { RouteAuth, RouteDefinition } from './route-definition.js';
import {
  pendingSessionStrategy,
  registerCookieSessionAuth,
  sessionOrPendingStrategy,
  sessionStrategy,
} from './auth/cookie-session-auth.js';
import { createOriginCheck } from './check-origin.js';
import { createCors, type Cors } from './create-cors.js';
import { createPagePolicy } from './page-policy.js';
import { createErrorRenderer } from './render-error.js';
import { validationFailure } from './validation-failure.js';
import { compileInputValidator } from './flat-form-validator.js';
import { refuseControlCharacters } from './refuse-control-characters.js';
import { installForwardAuthFastPath } from './forward-auth-fast-path.js';
import { logRequest } from './log-request.js';

/** Bodies above this answer 413: the JSON API never needs more. */
export const maxPayloadBytes = 64 * 1024;

/** The hapi server, named here so that code outside src/http needs no hapi import (the composition root holds one). */
export type HttpServer = Hapi.Server;

/**
 * Builds the hapi server from the route table: server options, the session
 * cookie and auth strategies, the Origin rule, CORS, the control-character
 * check, the error renderer and the page policy, then the routes. Not
 * started: the caller (src/app.ts) starts and stops it.
 */
export async function createServer(deps: HttpDeps, routes: RouteDefinition[]): Promise<HttpServer> {
  const { config } = deps;
  const https = new URL(config.server.baseUrl).protocol === 'https:';
  const server = Hapi.server({
    host: config.server.host,
    port: config.server.port,
    debug: false,
    routes: {
      validate: { failAction: validationFailure, options: { abortEarly: false } },
      payload: { maxBytes: maxPayloadBytes },
      security: securityOptions(https),
    },
    state: { strictHeader: false, ignoreErrors: true },
  });

  server.app.trustProxy = () => config.server.trustProxy;
  // h.file: static files with ETag, 304 and ranges.
  await server.register(Inert);
  registerCookieSessionAuth(server, {
    sessions: deps.accounts.sessions,
    cookiePassword: deps.cookiePassword,
    secure: https,
    ttlSeconds: config.security.sessionTtlSeconds,
    domain: config.forwardAuth.cookieDomain,
  });

  const cors = createCors(routes, () => deps.protocol.engine.clients.origins());
  server.ext('onRequest', cors.preflight);
  server.ext('onPostAuth', refuseControlCharacters);
  // In this order: errors become responses first, which then get the page policy (CORS, per route, comes last).
  server.ext('onPreResponse', createErrorRenderer(deps.logger));
  server.ext('onPreResponse', createPagePolicy(config));
  const { metrics } = deps.operations;
  // Only with metrics.enabled: without them the server has no hook to run.
  if (metrics)
    server.events.on('response', (request) => {
      metrics.observeRequest({
        // The template, never the path: a path holds subs, e-mails and any string a client makes up.
        // hapi answers unmatched requests through its `_special` notFound route (untyped), whose template is /{p*}.
        route: (request.route.method as string) === '_special' ? null : request.route.path,
        method: request.method,
        status: statusOf(request.response) ?? 0,
        seconds: (Date.now() - request.info.received) / 1000,
      });
    });
  server.events.on('response', (request) => {
    logRequest(deps.logger, {
      method: request.method,
      path: request.path,
      status: statusOf(request.response),
      receivedAt: request.info.received,
    });
  });

  const originCheck = createOriginCheck(config.server.baseUrl);
  server.route(routes.map((route) => toHapiRoute(route, deps, originCheck, cors)));
  installForwardAuthFastPath(server, {
    forwardAuth: () => deps.forwardAuth.forwardAuth,
    logger: deps.logger,
    ...(metrics ? { observeRequest: metrics.observeRequest } : {}),
    securityHeaders: securityHeadersOf(securityOptions(https)),
  });
  return server;
}

/** hapi's `security` route option of every route: the headers every answer carries. */
function securityOptions(https: boolean) {
  return {
    hsts: https,
    xframe: 'deny',
    noSniff: true,
    noOpen: true,
    referrer: 'no-referrer',
    xss: 'disabled',
  } as const;
}

/**
 * The headers hapi writes for securityOptions, for the one answer written
 * without hapi (./forward-auth-fast-path.ts); a test holds the two equal.
 */
function securityHeadersOf(options: ReturnType<typeof securityOptions>): Record<string, string> {
  return {
    ...(options.hsts ? { 'strict-transport-security': 'max-age=15768000' } : {}),
    'x-frame-options': options.xframe.toUpperCase(),
    'x-xss-protection': '0',
    'x-download-options': 'noopen',
    'x-content-type-options': 'nosniff',
    'referrer-policy': options.referrer,
  };
}

/** A finished request's status: a response's, or a Boom error's; none when the client went away before any. */
function statusOf(response: unknown): number | undefined {
  const answer = response as { statusCode?: number; output?: { statusCode: number } } | null;
  return answer?.statusCode ?? answer?.output?.statusCode;
}

/** The URL a started server listens on (an IPv6 address in brackets). */
export function serverUrl(server: HttpServer): string {
  const { protocol, address, port } = server.info;
  const host = address?.includes(':') ? `[${address}]` : address;
  return `${protocol}://${String(host)}:${String(port)}`;
}

/** The Origin rule concerns cookie-authenticated routes and those that ask for it; others skip the step. */
function needsOriginCheck(route: RouteDefinition): boolean {
  return route.checkOrigin === true || route.auth !== 'none';
}

function toHapiValidate(validate: RouteDefinition['validate']): RouteOptions['validate'] {
  if (!validate) return {};
  return {
    ...(validate.params ? { params: validate.params } : {}),
    ...(validate.query ? { query: compileInputValidator(validate.query) } : {}),
    ...(validate.payload ? { payload: compileInputValidator(validate.payload) } : {}),
    ...(validate.headers ? { headers: validate.headers.unknown(true) } : {}),
  };
}

declare module '@hapi/hapi' {
  /** What toHapiRoute puts in every route's `app`, read back by the error renderer and the origin check. */
  interface RouteOptionsApp {
    /** Errors render as OAuth errors (RFC 6749 §5.2) rather than the JSON API's. */
    protocol?: boolean;
    /** Cross-origin requests are refused even without a session cookie. */
    checkOrigin?: boolean;
  }
}

function toHapiRoute(route: RouteDefinition, deps: HttpDeps, originCheck: Lifecycle.Method, cors: Cors): ServerRoute {
  const status: Record<number, import('joi').Schema> = {};
  for (const [code, response] of Object.entries(route.responses)) {
    if (Number(code) < 400 && response.schema) status[Number(code)] = response.schema;
  }
  // Route-level steps run only where they apply, off the other routes' hot path.
  const ext: RouteOptions['ext'] = {
    ...(needsOriginCheck(route) ? { onPostAuth: { method: originCheck } } : {}),
    ...(route.cors ? { onPreResponse: { method: cors.responseHeaders(route.cors) } } : {}),
  };
  const options: RouteOptions = {
    auth: toHapiAuth(route.auth),
    tags: ['api', ...route.tags],
    description: route.summary,
    notes: route.description,
    app: { protocol: route.protocol ?? false, checkOrigin: route.checkOrigin ?? false },
    validate: toHapiValidate(route.validate),
    ...(Object.keys(ext).length > 0 ? { ext } : {}),
    ...(Object.keys(status).length > 0 ? { response: { status, failAction: 'error' as const } } : {}),
    // The JSON API takes JSON only: anything else is 415 before validation.
    ...(route.validate?.payload && !route.protocol ? { payload: { allow: 'application/json' } } : {}),
    ...route.hapiOptions,
  };
  return { method: route.method, path: route.path, options: { ...options, handler: route.handler(deps) } };
}

function toHapiAuth(auth: RouteAuth): RouteOptions['auth'] {
  switch (auth) {
    case 'none':
      return false;
    case 'session':
      return { strategy: sessionStrategy };
    case 'optional-session':
      return { strategy: sessionStrategy, mode: 'try' };
    case 'pending-session':
      return { strategy: pendingSessionStrategy };
    case 'session-or-pending':
      return { strategy: sessionOrPendingStrategy };
    case 'admin':
      // 401 without a session; hapi's scope check answers 403 for non-admins.
      return { strategy: sessionStrategy, access: { scope: ['admin'] } };
  }
}
