import type { IncomingHttpHeaders } from 'node:http';
import { fillHtmlVariables } from './html-variables.js';

/** What the proxy needs to know of the browser's request. */
export interface ProxyRequest {
  headers: IncomingHttpHeaders;
  /** The Cookie header without idp's own cookies (the session is idp's, not the front end's). */
  cookie: string | null;
  clientAddress: string;
  /** The scheme the browser used (for X-Forwarded-Proto). */
  protocol: 'http' | 'https';
}

/** RFC 9110 §7.6.1: connection-specific headers are not forwarded. */
const hopByHop = new Set([
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection',
  'te', 'trailer', 'transfer-encoding', 'upgrade', 'host',
]);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !hopByHop.has(name.toLowerCase())) out[name] = value;
  }
  return out;
}

/**
 * `proxy` mode's rules: where a path goes upstream, which headers go each
 * way, and html_variables in HTML answers. The HTTP layer moves the bytes
 * (@hapi/h2o2, src/http/routes/frontend-routes.ts): every answer but HTML
 * is streamed; HTML is read whole so that the variables apply, which is why
 * the upstream is asked not to compress.
 */
export function createProxyFrontend(options: { upstream: string; variables: Readonly<Record<string, string>> }) {
  const upstream = new URL(options.upstream);
  const base = `${upstream.origin}${upstream.pathname.replace(/\/+$/, '')}`;

  return {
    upstream: upstream.href,
    /** The upstream URL of a path and query as received. */
    uriFor: (pathAndQuery: string) => `${base}${pathAndQuery}`,
    requestHeaders(request: ProxyRequest): Record<string, string> {
      // A request header never repeats as a list (only Set-Cookie, an answer's, does): one line each.
      const headers = Object.fromEntries(Object.entries(forwardable(request.headers)).map(([name, value]) => [name, [value].flat().join(', ')]));
      delete headers.cookie;
      if (request.cookie) headers.cookie = request.cookie;
      headers['accept-encoding'] = 'identity';
      headers['x-forwarded-for'] = request.clientAddress;
      headers['x-forwarded-proto'] = request.protocol;
      if (request.headers.host) headers['x-forwarded-host'] = request.headers.host;
      headers.host = upstream.host;
      return headers;
    },
    /** The upstream answer's headers for the browser; an HTML answer's length changes with its variables. */
    responseHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
      const out = forwardable(headers);
      if (isHtml(headers)) delete out['content-length'];
      return out;
    },
    isHtml,
    fillHtml: (html: string) => fillHtmlVariables(html, options.variables),
  };
}

function isHtml(headers: IncomingHttpHeaders): boolean {
  return String(headers['content-type'] ?? '').startsWith('text/html');
}
