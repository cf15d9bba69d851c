import type { Request, ResponseToolkit } from '@hapi/hapi';
import type { HttpDeps } from './http-deps.js';
import { readSession } from './auth/cookie-session-auth.js';
import { createPageContext, type PageContext } from '../web/index.js';

/**
 * The PageContext of a request (src/web/pages): its locale from `?locale=`,
 * then the signed-in user's profile locale, then Accept-Language, then
 * i18n.default_locale. The user is the route's session; a route that
 * resolves the session itself (without the session auth mode) passes it.
 */
export function pageContextOf(
  deps: HttpDeps,
  request: Request,
  options: { user?: { locale: string | null } | null; reloadable?: boolean } = {},
): PageContext {
  const user = options.user === undefined ? readSession(request)?.user : options.user;
  const acceptLanguage = request.headers['accept-language'] as string | undefined;
  return createPageContext(
    deps.config,
    {
      path: request.path,
      query: request.query,
      acceptLanguage: acceptLanguage ?? null,
      userLocale: user?.locale ?? null,
      reloadable: options.reloadable,
    },
    new Set(deps.web.uiBundles.keys()),
  );
}

/** A rendered page: never cached, as it may name the signed-in user. */
export function pageResponse(h: ResponseToolkit, html: string, status = 200) {
  return h.response(html).code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store');
}
