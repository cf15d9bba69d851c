import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Request, ResponseToolkit } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import type { HttpDeps } from '../http-deps.js';
import { ApiError } from '../../api-error.js';
import { isSafeReturnTo } from '../../interaction/index.js';
import { isApiPath, ProxyTimeoutError, renderErrorPage } from '../../web/index.js';
import { addressOf } from '../client-address.js';
import { pageContextOf, pageResponse } from '../page-context.js';
import { leaveToOperator } from '../page-policy.js';

/**
 * Every path no other route owns (docs/oidc.md, "Frontend serving"): files of the
 * static directory (the built-in UI by default), or the developer's front
 * end in proxy mode. API paths (/api, /oauth2, /.well-known, /openapi.json)
 * are never served from here: an unknown one is the JSON API's 404.
 * The built-in UI's files and idp's error pages here get idp's page policy
 * (../page-policy.ts); the operator's own front end gets none from idp.
 * The built-in pages themselves are routes of their own (./page-routes.ts).
 */
const notFound = () => new ApiError(404, 'NOT_FOUND', 'The requested resource was not found.');

/** The interaction pages of an operator's front end take a return_to; an unsafe one is refused before any page can follow it. */
const interactionPages = new Set(['/login', '/consent']);

async function serveFrontend(deps: HttpDeps, request: Request, h: ResponseToolkit) {
  const { config } = deps;
  const { frontend } = deps.web;
  if (isApiPath(request.path) || frontend.mode === 'disabled') throw notFound();
  const reads = request.method === 'get' || request.method === 'head';
  if (!reads && frontend.mode !== 'proxy') throw notFound();
  const returnTo = request.query.return_to;
  if (
    interactionPages.has(request.path) &&
    returnTo !== undefined &&
    !isSafeReturnTo(returnTo, config.forwardAuth.apps)
  ) {
    const context = pageContextOf(deps, request);
    const t = context.text.pages.errorPages;
    return pageResponse(h, renderErrorPage(context, { title: t.invalidLinkTitle, message: t.invalidLinkMessage }), 400);
  }
  if (frontend.mode === 'proxy') {
    const answer = await frontend.proxy
      .forward({
        method: request.method.toUpperCase(),
        url: request.url.pathname + request.url.search,
        headers: request.headers as IncomingHttpHeaders,
        body: reads ? null : (request.payload as Readable),
        // The browser went away: so does the request to the front end.
        abandoned: new Promise<void>((resolve) => request.raw.res.once('close', () => resolve())),
        clientAddress: addressOf(request),
        protocol: new URL(config.server.baseUrl).protocol === 'https:' ? 'https' : 'http',
      })
      .catch((error: unknown) => {
        deps.logger.warn(
          { err: error, upstream: frontend.proxy.upstream },
          'frontend proxy: the upstream does not answer',
        );
        return error instanceof ProxyTimeoutError ? 'timeout' : null;
      });
    if (answer === null || answer === 'timeout') {
      const context = pageContextOf(deps, request);
      const t = context.text.pages.errorPages;
      const message = answer === 'timeout' ? t.frontendTimeoutMessage : t.frontendUnavailableMessage;
      return pageResponse(
        h,
        renderErrorPage(context, { title: t.frontendUnavailableTitle, message }),
        answer === 'timeout' ? 504 : 502,
      );
    }
    const response = leaveToOperator(h.response(answer.body).code(answer.status));
    // Repeated headers (several Set-Cookie) stay separate lines.
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of Array.isArray(value) ? value : [value]) response.header(name, one, { append: true });
    }
    return response;
  }
  const file = await frontend.static.load(request.path);
  if (!file) {
    const context = pageContextOf(deps, request);
    const t = context.text.pages.errorPages;
    const onward = { href: '/', label: context.text.pages.common.goHome };
    return pageResponse(
      h,
      renderErrorPage(context, { title: t.notFoundTitle, message: t.notFoundMessage, onward }),
      404,
    );
  }
  // Files other than pages through @hapi/inert (ETag, 304, ranges), confined to the directory once more.
  const response =
    'file' in file
      ? h
          .file(file.file, { confine: frontend.static.directory })
          .type(file.contentType)
          .header('cache-control', 'public, max-age=300')
      : h.response(file.body).type(file.contentType).header('cache-control', 'no-cache');
  return frontend.builtin ? response : leaveToOperator(response);
}

/** GET serves pages in every mode. */
export const frontendPageRoute: RouteSpec = {
  tags: [],
  summary: 'Web UI (built-in pages, static files or the proxied front end)',
  hidden: true,
  responses: { 200: { description: 'A page or file', contentType: 'text/html' } },
  handler: (deps) => (request, h) => serveFrontend(deps, request, h),
};

/** The other methods only reach a proxied front end, which reads the raw body. */
export const frontendProxyRoute: RouteSpec = {
  ...frontendPageRoute,
  hapiOptions: { payload: { parse: false, output: 'stream' } },
};
