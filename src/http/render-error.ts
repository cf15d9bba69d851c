import type { Boom } from '@hapi/boom';
import type { Lifecycle, Request, ResponseToolkit } from '@hapi/hapi';
import type { Logger } from 'pino';
import { ApiError, forbidden, unauthorized } from '../api-error.js';
import { OAuthError } from '../oidc/errors.js';

/**
 * The one place where errors become responses (onPreResponse). The JSON API
 * answers `{ code, message }` (docs/http-api.md, "Conventions"); protocol routes
 * (RouteDefinition.protocol) answer RFC 6749 §5.2 `{ error, error_description }`.
 * Server errors are logged with their cause and shown as a plain message:
 * never a stack trace or an internal detail.
 */
export function createErrorRenderer(logger: Logger): Lifecycle.Method {
  return (request: Request, h: ResponseToolkit) => {
    const response = request.response;
    if (!(response instanceof Error) || !response.isBoom) return h.continue;
    const error = response;
    if (error.output.statusCode >= 500 && !(error instanceof ApiError) && !(error instanceof OAuthError)) {
      logger.error({ err: error, method: request.method, path: request.path }, 'request failed');
    }
    const app = request.route.settings.app;
    const rendered = app?.protocol ? toOAuthBody(error) : toApiBody(error);
    const reply = h.response(rendered.body).code(rendered.status).type('application/json');
    for (const [name, value] of Object.entries(rendered.headers)) reply.header(name, value);
    // Not a takeover: the onPreResponse steps registered after this one (CORS, the page policy) still see the reply.
    return reply;
  };
}

interface Rendered {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

const genericByStatus: Partial<Record<number, () => ApiError>> = {
  401: unauthorized,
  403: forbidden,
  404: () => new ApiError(404, 'NOT_FOUND', 'The requested resource was not found.'),
  405: () => new ApiError(405, 'METHOD_NOT_ALLOWED', 'The method is not allowed for this resource.'),
  413: () => new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.'),
  415: () =>
    new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The request content type is not supported; send application/json.'),
  429: () => new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many requests. Try again later.'),
  503: () => new ApiError(503, 'SERVICE_UNAVAILABLE', 'The service is temporarily unavailable.'),
};

export function toApiBody(error: Boom): Rendered {
  const headers: Record<string, string> = {};
  const known = error instanceof ApiError ? error : toKnownApiError(error);
  if (known.extra.retryAfterSeconds !== undefined) headers['retry-after'] = String(known.extra.retryAfterSeconds);
  const body: Record<string, unknown> = { code: known.code, message: known.message };
  if (known.extra.details) body.details = known.extra.details;
  return { status: known.status, body, headers };
}

function toKnownApiError(error: Boom): ApiError {
  const status = error.output.statusCode;
  if (status === 400) {
    // hapi's payload parser: "Invalid request payload JSON format".
    return /JSON/i.test(error.message)
      ? new ApiError(400, 'MALFORMED_JSON', 'The request body is not valid JSON.')
      : new ApiError(400, 'BAD_REQUEST', 'The request is malformed.');
  }
  const generic = genericByStatus[status];
  if (generic) return generic();
  if (status >= 500) return new ApiError(500, 'INTERNAL_ERROR', 'An unexpected error occurred.');
  const code = ((error.output.payload.error as string | undefined) ?? 'Bad Request')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_');
  return new ApiError(status, code, error.output.payload.message || 'The request could not be processed.');
}

function toOAuthBody(error: Boom): Rendered {
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  for (const [name, value] of Object.entries(error.output.headers)) headers[name.toLowerCase()] = String(value);
  if (error instanceof OAuthError)
    return { status: error.status, body: error.toJSON(), headers: { ...headers, ...error.headers } };
  const status = error.output.statusCode;
  if (status >= 500)
    return { status: 500, body: new OAuthError('server_error', 'An unexpected error occurred.').toJSON(), headers };
  if (status === 401)
    return {
      status,
      body: new OAuthError('invalid_token', 'The access token is missing, invalid or expired.').toJSON(),
      headers,
    };
  const description =
    error instanceof ApiError ? error.message : error.output.payload.message || 'The request is invalid.';
  return { status: status === 404 ? 404 : 400, body: new OAuthError('invalid_request', description).toJSON(), headers };
}
