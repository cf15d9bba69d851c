import { CliError } from '../output.js';
import { AdminApiError } from './admin-api-error.js';
import type { ApiErrorBody } from './admin-api-types.js';

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** An array repeats the parameter (`sub=a&sub=b`). */
  query?: Record<string, string | number | boolean | string[] | undefined>;
  body?: unknown;
  cookie: string | null;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
  /** The new value of the `session` cookie when the server set one, else null. */
  sessionCookie: string | null;
}

/** Long enough for an argon2 login on a busy machine, short enough to not hang a script. */
const timeoutMs = 30_000;

/**
 * One JSON request to the idp server with global fetch. Error answers become
 * AdminApiError (the server's `{ code, message }`); an unreachable server or an
 * answer that is not the idp's JSON becomes a one-line CliError.
 */
export async function sendRequest(baseUrl: string, request: ApiRequest): Promise<ApiAnswer> {
  const url = buildUrl(baseUrl, request);
  const response = await fetchOrExplain(baseUrl, url, request);
  // Redirects are not followed: a cookie and a password go only where they were told to.
  const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
  if (location)
    throw new CliError(
      `${url.origin}${url.pathname} redirects to ${location}: give the server's own address with --url`,
    );
  const body = await readJson(response, url);
  if (!response.ok) {
    if (isErrorBody(body)) throw new AdminApiError(response.status, body, readRetryAfter(response));
    throw new CliError(
      `unexpected answer from ${url.origin}: HTTP ${response.status} without an error code (is ${baseUrl} an idp server?)`,
    );
  }
  return { status: response.status, body, sessionCookie: readSessionCookie(response) };
}

function buildUrl(baseUrl: string, request: ApiRequest): URL {
  // base_url may carry a path prefix (https://example.com/idp): keep it.
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, item);
    else if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url;
}

async function fetchOrExplain(baseUrl: string, url: URL, request: ApiRequest): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (request.cookie) headers.cookie = request.cookie;
  try {
    return await fetch(url, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') {
      throw new CliError(`the idp server at ${baseUrl} did not answer within ${timeoutMs / 1000} s`);
    }
    throw new CliError(`cannot reach the idp server at ${baseUrl}: ${describeNetworkError(error)}`);
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: NodeJS.ErrnoException & { hostname?: string } }).cause;
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is `idp serve` running?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found (${cause.hostname ?? 'unknown host'})`;
    default:
      return cause?.message ?? (error as Error).message;
  }
}

async function readJson(response: Response, url: URL): Promise<unknown> {
  const text = await response.text();
  // 204 and empty bodies (a logout, say) carry nothing to parse.
  if (text === '') return null;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) {
    if (!response.ok) return null;
    throw new CliError(
      `unexpected answer from ${url.origin}${url.pathname}: HTTP ${response.status} ${type || 'without a content type'}, expected JSON`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliError(
      `unexpected answer from ${url.origin}${url.pathname}: HTTP ${response.status} with malformed JSON`,
    );
  }
}

function isErrorBody(body: unknown): body is ApiErrorBody {
  const candidate = body as Partial<ApiErrorBody> | null;
  return typeof candidate?.code === 'string' && typeof candidate.message === 'string';
}

/** `session=VALUE` from Set-Cookie, ignoring a cookie being cleared (empty value). */
function readSessionCookie(response: Response): string | null {
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(';', 1)[0].trim();
    if (pair.startsWith('session=') && pair.length > 'session='.length) return pair;
  }
  return null;
}

/** Retry-After in delta-seconds (RFC 9110 §10.2.3); an HTTP-date form is left out. */
function readRetryAfter(response: Response): number | null {
  const value = response.headers.get('retry-after');
  return value !== null && /^[0-9]+$/.test(value.trim()) ? Number(value) : null;
}
