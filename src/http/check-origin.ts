import type { Lifecycle, Request, ResponseToolkit } from '@hapi/hapi';
import { ApiError } from '../api-error.js';
import { cookieStrategies } from './auth/cookie-session-auth.js';

const safeMethods = new Set(['get', 'head', 'options']);

/**
 * The Origin rule (docs/http-api.md, "Origin rule"), an onPostAuth step: a cookie-authenticated
 * unsafe request (and the login request, which creates the cookie) whose
 * Origin header is not the service's own origin is refused with 403
 * ORIGIN_NOT_ALLOWED. Requests without Origin (CLI, curl) pass: browsers
 * always send Origin on cross-site unsafe requests, which is what this stops.
 */
export function createOriginCheck(baseUrl: string): Lifecycle.Method {
  const ownOrigin = new URL(baseUrl).origin;
  return (request: Request, h: ResponseToolkit) => {
    if (safeMethods.has(request.method)) return h.continue;
    const origin = request.headers.origin;
    if (origin === undefined || origin === ownOrigin) return h.continue;
    const app = request.route.settings.app;
    const cookieAuthenticated = request.auth.isAuthenticated && cookieStrategies.includes(request.auth.strategy);
    if (!cookieAuthenticated && !app?.checkOrigin) return h.continue;
    throw new ApiError(403, 'ORIGIN_NOT_ALLOWED', 'Cross-origin requests are not allowed for this resource.');
  };
}
