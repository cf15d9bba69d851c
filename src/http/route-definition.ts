import type { Lifecycle, RouteOptions } from '@hapi/hapi';
import type Joi from 'joi';
import type { HttpDeps } from './http-deps.js';

/** The endpoint groups (docs/http-api.md, "Conventions"); every documented route carries at least one. */
export type ApiTag = 'Auth' | 'User' | 'Consent' | 'Terms' | 'OAuth Connect' | 'OpenID' | 'Health' | 'Admin';

/**
 * Who may call a route:
 * - none: anyone;
 * - session: a signed-in browser session (cookieSessionAuth), else 401;
 * - optional-session: the session when there is one, anonymous otherwise;
 * - pending-session: a session waiting for its second factor (after a right
 *   password), else 401 (409 SIGN_IN_NOT_PENDING for a signed-in one);
 * - session-or-pending: a signed-in session or a pending one (the enrolment
 *   routes: their service decides what a pending session may do);
 * - admin: a session whose user has role admin (401 without a session, 403 otherwise).
 *
 * The protocol endpoints that take an access token (userinfo) read it
 * themselves: OAuth errors and RFC 6750 challenges are theirs to answer.
 */
export type RouteAuth = 'none' | 'session' | 'optional-session' | 'pending-session' | 'session-or-pending' | 'admin';

/**
 * Which other origins' browser apps may read a route's responses
 * (./create-cors.ts answers their preflight and sets the headers; docs/oidc.md "CORS"):
 * - any-origin: `*`, for public documents (discovery, the JWK Set);
 * - client-origins: an Origin that is the origin of a client's registered redirect URI, echoed;
 * - public-client-origins: the same, of public clients only.
 * Credentials (cookies) are never allowed cross-origin. A row without a mode
 * is same-origin only: no CORS headers, and OPTIONS is a 404.
 */
export type RouteCors = 'any-origin' | 'client-origins' | 'public-client-origins';

export interface ResponseSpec {
  description: string;
  /** joi schema of the body; validated on the way out and published in OpenAPI. */
  schema?: Joi.Schema;
  /** Defaults to application/json. */
  contentType?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a route does, as data: schemas, responses, OpenAPI text and the
 * handler. The files under ./routes/ export these; the table in ./routes.ts
 * gives each its method, path and auth mode (the one place those are
 * written), ./create-server.ts turns the rows into hapi routes, and
 * ./openapi/ turns the same rows into the OpenAPI 3.1 document, so the joi
 * schemas are the one source of truth.
 */
export interface RouteSpec {
  tags: ApiTag[];
  summary: string;
  description?: string;
  validate?: {
    params?: Joi.ObjectSchema;
    query?: Joi.ObjectSchema;
    payload?: Joi.Schema;
    /** Request headers the route reads (lower-case names; other headers are allowed), published as header parameters. */
    headers?: Joi.ObjectSchema;
  };
  /** Status → response; include the error statuses the operation declares. */
  responses: Record<number, ResponseSpec>;
  /**
   * Protocol routes (/oauth2, discovery): errors are rendered as OAuthError
   * (RFC 6749 §5.2 JSON) instead of `{ code, message }`, and joi failures
   * become invalid_request. Such a route may also render its own errors.
   */
  protocol?: boolean;
  /** Left out of the OpenAPI document (the reference UI page and its assets). */
  hidden?: boolean;
  /** Apply the Origin rule although the route is not cookie-authenticated (login). */
  checkOrigin?: boolean;
  /**
   * Escape hatch for hapi options the spec does not model (payload parsing,
   * state). Never `auth`: the table's auth mode is the one served.
   */
  hapiOptions?: Omit<RouteOptions, 'auth'>;
  handler(deps: HttpDeps): Lifecycle.Method;
}

/** One row of the route table: a spec at its method and path, with its auth mode and CORS mode. */
export interface RouteDefinition extends RouteSpec {
  method: HttpMethod;
  path: string;
  auth: RouteAuth;
  cors?: RouteCors;
}

/** A row of the table in ./routes.ts; `cors` only on the routes browser apps of other origins call. */
export function route(
  method: HttpMethod,
  path: string,
  auth: RouteAuth,
  spec: RouteSpec,
  options: { cors?: RouteCors } = {},
): RouteDefinition {
  return { ...spec, method, path, auth, ...options };
}
