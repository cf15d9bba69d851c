import type { Request, ResponseToolkit } from '@hapi/hapi';
import type { HttpDeps } from './http-deps.js';
import { createPageContext, type PageContext } from '../web/index.js';

/**
 * The PageContext of a request (src/web/pages): its locale from `?locale=`,
 * then the signed-in user's profile locale, then Accept-Language, then
 * i18n.default_locale.
 */
export function pageContextOf(deps: HttpDeps, request: Request, options: { userLocale?: string | null; reloadable?: boolean } = {}): PageContext {
  const acceptLanguage = request.headers['accept-language'] as string | undefined;
  return createPageContext(deps.config, {
    path: request.path,
    query: request.query,
    acceptLanguage: acceptLanguage ?? null,
    userLocale: options.userLocale ?? null,
    reloadable: options.reloadable,
  });
}

/** A rendered page: never cached, as it may name the signed-in user. */
export function pageResponse(h: ResponseToolkit, html: string, status = 200) {
  return h.response(html).code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store');
}
