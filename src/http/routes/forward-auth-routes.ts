import type { IncomingMessage } from 'node:http';
import Joi from 'joi';
import type { Request, ResponseToolkit } from '@hapi/hapi';
import { ApiError } from '../../api-error.js';
import type { ForwardAuthAnswer, OriginalRequest } from '../../forward-auth/forward-auth-service.js';
import { isHostName } from '../../config/forward-auth-hosts.js';
import { createSessionCookieCache } from '../auth/session-cookie-cache.js';
import { peerIsTrustedProxy } from '../client-address.js';
import type { RouteSpec } from '../route-definition.js';
import { errorResponse } from '../schemas/error-schema.js';

/**
 * GET /api/forward-auth (Traefik forwardAuth, Caddy forward_auth) and GET
 * /api/auth-request (nginx auth_request), docs/forward-auth.md: the proxy
 * tells the original request in headers, and these headers are believed only
 * from a peer that server.trust_proxy names; anyone else could name any host
 * and path. The answer is the service's; what is left here is reading the
 * headers strictly and writing the status the proxy acts on.
 */

const untrustedProxy = () =>
  new ApiError(
    400,
    'UNTRUSTED_PROXY',
    'The X-Forwarded-* and X-Original-URL headers are believed only from the proxies server.trust_proxy names.',
  );
const badOriginalRequest = (message: string) => new ApiError(400, 'INVALID_ORIGINAL_REQUEST', message);
const notSignedIn = () => new ApiError(401, 'UNAUTHORIZED', 'Sign in to use this app.');
const noAccess = () => new ApiError(403, 'FORBIDDEN', 'You have no access to this app.');
const unknownApp = () => new ApiError(403, 'UNKNOWN_APP', 'No forward_auth app declares this host and path.');

/** Visible ASCII: a URI the proxy passes on as it came (CR, LF, NUL and spaces never belong in one). */
const uriText = /^[\x21-\x7e]+$/;
const hostWithPort = /^([A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;

/**
 * The route-level onPreAuth step: the trust rule comes before any header is
 * read, so an untrusted caller learns nothing. hapi's cookie parsing is off:
 * the session cookie is read through a cache of unsealed cookies.
 */
const trustedProxyOnly = {
  state: { parse: false, failAction: 'ignore' as const },
  ext: {
    onPreAuth: {
      method: (request: Request, h: ResponseToolkit) => {
        if (!peerIsTrustedProxy(request)) throw untrustedProxy();
        return h.continue;
      },
    },
  },
};

const responses = {
  200: {
    description:
      'Signed in and allowed: the identity headers (Remote-User, Remote-Email, Remote-Name, Remote-Groups, or their forward_auth.apps[].headers names), empty body.',
  },
  400: errorResponse(
    'UNTRUSTED_PROXY: the peer is not a server.trust_proxy address; INVALID_ORIGINAL_REQUEST or VALIDATION_ERROR: the original request headers are missing or malformed',
  ),
  401: errorResponse('UNAUTHORIZED: no signed-in session'),
  403: errorResponse('FORBIDDEN: signed in, outside the access rule of the app; UNKNOWN_APP: no app declares the host'),
};

const headerText = (name: string, max: number) => Joi.string().max(max).description(name);

const forwardedHeaders = Joi.object({
  'x-forwarded-proto': headerText('Scheme of the original request: http or https', 5).valid('http', 'https').required(),
  'x-forwarded-host': headerText('Host (and port) of the original request', 260).pattern(hostWithPort).required(),
  'x-forwarded-uri': headerText('Path and query of the original request', 8192).pattern(/^\//).required(),
  'x-forwarded-method': headerText('Method of the original request', 16).pattern(/^[A-Z]+$/),
});

const originalUrlHeaders = Joi.object({
  'x-original-url': headerText(
    'The original request as an absolute URL, such as https://grafana.example.com/d/x?orgId=1',
    8300,
  ).required(),
});

type ProxyHeaders = Record<string, string | string[] | undefined>;

/** The original request read from the proxy's headers: its URL as text, and what the service matches. */
export interface OriginalReading {
  url: string;
  request: OriginalRequest;
}

/**
 * The verdict the fast path (../forward-auth-fast-path.ts) reached for a
 * request it passes on to hapi (anything but an allow), after the same trust
 * rule, header schema and reading of the original request as the route's:
 * the route answers it without asking the service a second time (another
 * generation read and session lookup for every refused asset).
 */
export const verdictsPassedOn = new WeakMap<IncomingMessage, ForwardAuthAnswer>();

/**
 * The two routes as the fast path of an allowed answer
 * (../forward-auth-fast-path.ts) reads them: the same header schema and the
 * same reading of the original request as the hapi routes below.
 */
export const forwardAuthPaths = {
  '/api/forward-auth': {
    headers: forwardedHeaders.unknown(true),
    /** The values of the headers the schema and the reading look at, as one unambiguous text (undefined: none to remember). */
    readFrom: (headers: ProxyHeaders): string | undefined =>
      JSON.stringify([
        headers['x-forwarded-proto'],
        headers['x-forwarded-host'],
        headers['x-forwarded-uri'],
        headers['x-forwarded-method'],
      ]),
    original: (headers: ProxyHeaders) =>
      originalRequest(
        `${headers['x-forwarded-proto'] as string}://${headers['x-forwarded-host'] as string}${headers['x-forwarded-uri'] as string}`,
      ),
  },
  '/api/auth-request': {
    headers: originalUrlHeaders.unknown(true),
    readFrom: (headers: ProxyHeaders): string | undefined => {
      const url = headers['x-original-url'];
      return typeof url === 'string' ? url : undefined;
    },
    original: (headers: ProxyHeaders) => originalRequest(headers['x-original-url'] as string),
  },
} as const;

export type ForwardAuthPath = keyof typeof forwardAuthPaths;

export const forwardAuthRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'Forward authentication for Traefik and Caddy',
  description:
    'Asked by a reverse proxy about one request of a protected app (forward_auth.apps). The original request comes from X-Forwarded-Proto, -Host and -Uri (and -Method), believed only from server.trust_proxy addresses. 200 with the identity headers; 302 to /login?return_to=<original URL> for a GET of a browser page (Accept: text/html) without a session, 401 for other requests without one; 403 outside the access rule or for a host no app declares.',
  validate: { headers: forwardedHeaders },
  responses: {
    ...responses,
    302: { description: 'To /login?return_to=<original URL>: a browser page without a session' },
  },
  hapiOptions: trustedProxyOnly,
  handler: (deps) => {
    const sessionIdOf = createSessionCookieCache();
    return async (request, h) => {
      const headers = request.headers as Record<string, string | undefined>;
      const original = forwardAuthPaths['/api/forward-auth'].original(headers);
      const answer =
        verdictsPassedOn.get(request.raw.req) ??
        (await deps.forwardAuth.forwardAuth.check(original.request, await sessionIdOf(request)));
      const method = headers['x-forwarded-method'] ?? 'GET';
      if (answer.outcome === 'sign-in' && (method === 'GET' || method === 'HEAD') && acceptsHtml(request)) {
        const login = `${deps.config.server.baseUrl}/login?${new URLSearchParams({ return_to: original.url })}`;
        return h.redirect(login).code(302).header('cache-control', 'no-store');
      }
      return respond(h, answer);
    };
  },
};

export const authRequestRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'Forward authentication for nginx auth_request',
  description:
    'Asked by nginx auth_request about one request of a protected app (forward_auth.apps): the original URL comes from X-Original-URL, believed only from server.trust_proxy addresses. 200 with the identity headers, 401 without a session (never a redirect: nginx turns the 401 into one with error_page), 403 outside the access rule or for a host no app declares.',
  validate: { headers: originalUrlHeaders },
  responses,
  hapiOptions: trustedProxyOnly,
  handler: (deps) => {
    const sessionIdOf = createSessionCookieCache();
    return async (request, h) => {
      const original = forwardAuthPaths['/api/auth-request'].original(request.headers as ProxyHeaders);
      const answer =
        verdictsPassedOn.get(request.raw.req) ??
        (await deps.forwardAuth.forwardAuth.check(original.request, await sessionIdOf(request)));
      return respond(h, answer);
    };
  },
};

/**
 * The original request from the proxy's text: visible ASCII only, an
 * http(s) URL whose host is a plain host name (and port), without userinfo;
 * the path as a browser would send it to the app, dot segments resolved, so
 * that `/public/../admin` is matched as `/admin`.
 */
function originalRequest(text: string): OriginalReading {
  if (!uriText.test(text)) throw badOriginalRequest('The original request contains white space or control characters.');
  const parts = /^(https?):\/\/([^/?#]*)([/?][^#]*)?$/.exec(text);
  if (!parts) throw badOriginalRequest('The original request is not an http(s) URL with a path.');
  const host = hostWithPort.exec(parts[2]);
  const name = host ? host[1].toLowerCase() : '';
  if (!host || !isHostName(name) || Number((host[2] as string | undefined) ?? 0) > 65535)
    throw badOriginalRequest('The original host is not a host name with an optional port.');
  // A query without a path (`https://host?x`) is the path / with that query.
  const rest = parts[3] as string | undefined;
  const path = rest === undefined ? '/' : rest.startsWith('?') ? `/${rest}` : rest;
  let url: URL;
  try {
    url = new URL(`${parts[1]}://${parts[2]}${path}`);
  } catch {
    throw badOriginalRequest('The original request is not a URL.');
  }
  return { url: url.href, request: { host: name, path: url.pathname, decodedPath: decodedPathOf(url.pathname) } };
}

/**
 * The path as an app that decodes `%2F` (and `%5C`, a backslash) before
 * routing reads it, when that differs: `/public/..%2Fadmin` is `/admin` to
 * such an app while the URL standard keeps it below `/public`.
 */
function decodedPathOf(path: string): string | null {
  if (!/%2f|%5c/i.test(path)) return null;
  const decoded = new URL(path.replace(/%2f|%5c/gi, '/'), 'http://path.invalid').pathname;
  return decoded === path ? null : decoded;
}

function acceptsHtml(request: Request): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}

function respond(h: ResponseToolkit, answer: ForwardAuthAnswer) {
  switch (answer.outcome) {
    case 'allow': {
      const response = h.response().code(200).header('cache-control', 'no-store');
      for (const [name, value] of Object.entries(identityHeaders(answer.headers))) response.header(name, value);
      return response;
    }
    case 'sign-in':
      throw notSignedIn();
    case 'deny':
      throw noAccess();
    case 'unknown-app':
      throw unknownApp();
  }
}

/** The identity headers of an allowed answer, as written on the wire. */
export function identityHeaders(headers: Record<string, string>): Record<string, string> {
  const written: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) written[name] = headerValue(value);
  return written;
}

/**
 * Header values travel as bytes: a name or e-mail address beyond ASCII is
 * sent as its UTF-8 bytes (what proxies pass on and apps read), and a
 * control character, which a header cannot carry, as its percent escape.
 */
function headerValue(value: string): string {
  const bytes = Buffer.from(value, 'utf8').toString('latin1');
  return bytes.replace(
    /[\u0000-\u001f\u007f]/g,
    (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`,
  );
}
