import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Request, ResponseToolkit } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import type { HttpDeps } from '../http-deps.js';
import { ApiError } from '../../api-error.js';
import { isSafeReturnTo } from '../../interaction/index.js';
import { isApiPath, ProxyTimeoutError, renderErrorPage } from '../../web/index.js';
import { clientAddress } from '../client-address.js';
import { leaveToOperator } from '../page-policy.js';

/**
 * Every path no other route owns (SPEC.md 2.5 frontend): files of the
 * static directory (the built-in UI by default), or the developer's front
 * end in proxy mode. API paths (/api, /oauth2, /.well-known, /openapi.json)
 * are never served from here: an unknown one is the JSON API's 404.
 * The built-in UI's pages and idp's error pages here get idp's page policy
 * (../page-policy.ts); the operator's own front end gets none from idp.
 */
const notFound = () => new ApiError(404, 'NOT_FOUND', 'The requested resource was not found.');

/** The interaction pages take a return_to; an unsafe one is refused before any page can follow it. */
const interactionPages = new Set(['/login', '/consent']);

async function serveFrontend(deps: HttpDeps, request: Request, h: ResponseToolkit) {
  const { frontend, config } = deps;
  if (isApiPath(request.path) || frontend.mode === 'disabled') throw notFound();
  const reads = request.method === 'get' || request.method === 'head';
  if (!reads && frontend.mode !== 'proxy') throw notFound();
  const returnTo = request.query.return_to as unknown;
  if (interactionPages.has(request.path) && returnTo !== undefined && !isSafeReturnTo(returnTo)) {
    const page = renderErrorPage({
      brandingName: config.branding.name,
      title: 'Invalid link',
      message: 'This link points to another site, so it was not followed. Go back to the application and try again.',
    });
    return h.response(page).code(400).type('text/html; charset=utf-8');
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
        clientAddress: clientAddress(request, config.server.trustProxy),
        protocol: new URL(config.server.baseUrl).protocol === 'https:' ? 'https' : 'http',
      })
      .catch((error: unknown) => {
        deps.logger.warn({ err: error, upstream: frontend.proxy.upstream }, 'frontend proxy: the upstream does not answer');
        return error instanceof ProxyTimeoutError ? 'timeout' : null;
      });
    if (answer === null || answer === 'timeout') {
      const message = answer === 'timeout' ? 'The front end did not answer in time. Try again in a moment.' : 'The front end is not answering. Try again in a moment.';
      const page = renderErrorPage({ brandingName: config.branding.name, title: 'Front end unavailable', message });
      return h.response(page).code(answer === 'timeout' ? 504 : 502).type('text/html; charset=utf-8');
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
    const page = renderErrorPage({ brandingName: config.branding.name, title: 'Page not found', message: 'There is no page at this address.' });
    return h.response(page).code(404).type('text/html; charset=utf-8');
  }
  // Files other than pages through @hapi/inert (ETag, 304, ranges), confined to the directory once more.
  const response =
    'file' in file
      ? h.file(file.file, { confine: frontend.static.directory }).type(file.contentType).header('cache-control', 'public, max-age=300')
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
export const frontendProxyRoute: RouteSpec = { ...frontendPageRoute, hapiOptions: { payload: { parse: false, output: 'stream' } } };
