import type { Lifecycle, RouteOptions } from '@hapi/hapi';
import type Joi from 'joi';
import type { HttpDeps } from './http-deps.js';

/** The endpoint groups of SPEC.md 1; every documented route carries at least one. */
export type ApiTag = 'Auth' | 'User' | 'Consent' | 'Terms' | 'OAuth Connect' | 'OpenID' | 'Health' | 'Admin';

/**
 * Who may call a route:
 * - none: anyone;
 * - session: a signed-in browser session (cookieSessionAuth), else 401;
 * - optional-session: the session when there is one, anonymous otherwise;
 * - admin: a session whose user has role admin (401 without a session, 403 otherwise);
 * - bearer: a JWT access token (bearerAuth), verified by HttpDeps.verifyAccessToken.
 */
export type RouteAuth = 'none' | 'session' | 'optional-session' | 'admin' | 'bearer';

export interface ResponseSpec {
  description: string;
  /** joi schema of the body; validated on the way out and published in OpenAPI. */
  schema?: Joi.Schema;
  /** Defaults to application/json. */
  contentType?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One route, as data: the table in ./routes.ts lists these, ./create-server.ts
 * turns them into hapi routes, and ./openapi/ turns the same objects into the
 * OpenAPI 3.1 document, so the joi schemas are the one source of truth.
 */
export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  auth: RouteAuth;
  tags: ApiTag[];
  summary: string;
  description?: string;
  validate?: {
    params?: Joi.ObjectSchema;
    query?: Joi.ObjectSchema;
    payload?: Joi.Schema;
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
  /** Escape hatch for hapi options the definition does not model (payload parsing, state). */
  hapiOptions?: RouteOptions;
  handler(deps: HttpDeps): Lifecycle.Method;
}
