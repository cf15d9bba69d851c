import { UpstreamError } from './federation-error.js';

/** How long idp waits for an upstream's answer (each call) before giving up with UPSTREAM_ERROR. */
export const defaultUpstreamTimeoutMs = 10_000;

export interface UpstreamRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
}

/**
 * One call to an upstream that must answer JSON: bounded by `timeoutMs`,
 * and every way it can go wrong (no answer, a timeout, a body that is not
 * JSON) is an UpstreamError naming `what` was called. The HTTP status is
 * the caller's to judge: OAuth error bodies come with 4xx. `link` is the
 * RFC 8288 Link header (GitHub's pagination), null when absent.
 */
export async function fetchUpstreamJson(
  what: string,
  url: string,
  request: UpstreamRequest,
  timeoutMs: number,
): Promise<{ status: number; body: unknown; link: string | null }> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: request.method ?? 'GET',
      headers: {
        accept: 'application/json',
        // GitHub's REST API refuses requests without a User-Agent.
        'user-agent': 'idp',
        ...(request.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...request.headers,
      },
      body: request.form ? new URLSearchParams(request.form).toString() : undefined,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    throw new UpstreamError(
      timedOut ? `${what}: no answer within ${timeoutMs} ms` : `${what}: ${(error as Error).message}`,
    );
  }
  try {
    return { status: response.status, body: JSON.parse(text) as unknown, link: response.headers.get('link') };
  } catch {
    throw new UpstreamError(`${what}: HTTP ${response.status} with a body that is not JSON`);
  }
}

/** A JSON object, or an UpstreamError saying what came instead. */
export function asObject(what: string, body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new UpstreamError(`${what}: the answer is not a JSON object`);
  return body as Record<string, unknown>;
}
