// @ts-check
/**
 * The built-in pages talk only to the JSON API (docs/ui.md): these helpers
 * send JSON with the session cookie and return the answer, or the error's
 * code, status, Retry-After and details, which ./form.js turns into
 * sentences of the page's language (never the API's English message).
 */

/**
 * @typedef {{ path: string, message: string }} ErrorDetail
 * @typedef {{ ok: true, status: number, body: any } | { ok: false, status: number, code: string, retryAfter: string | null, details: ErrorDetail[] }} ApiResult
 */

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<ApiResult>}
 */
export async function callApi(method, path, body) {
  /** @type {RequestInit} */
  const init = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers = { accept: 'application/json', 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    return { ok: false, status: 0, code: 'NETWORK_ERROR', retryAfter: null, details: [] };
  }
  const text = await response.text();
  /** @type {any} */
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (response.ok) return { ok: true, status: response.status, body: parsed };
  return {
    ok: false,
    status: response.status,
    code: typeof parsed?.code === 'string' ? parsed.code : 'HTTP_' + response.status,
    retryAfter: response.headers.get('retry-after'),
    details: Array.isArray(parsed?.details) ? parsed.details : [],
  };
}

/**
 * The page's data block (src/web/pages/render-page.ts): its strings and
 * settings, written by the server in the page's language.
 * @returns {any}
 */
export function pageData() {
  const block = document.getElementById('page-data');
  return block ? JSON.parse(block.textContent ?? '{}') : {};
}

/**
 * The server's rule (src/interaction/return-to.ts), repeated here because the
 * page follows return_to itself: a same-origin path, never another site.
 * @param {string | null} value
 * @returns {string | null}
 */
export function safeReturnTo(value) {
  if (!value || value.length > 8192) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  try {
    return new URL(value, location.origin).origin === location.origin ? value : null;
  } catch {
    return null;
  }
}

/**
 * An app's URL the server accepted as return_to (forward authentication,
 * docs/forward-auth.md: a host of forward_auth.apps) and handed over as
 * `appReturnTo`; held once more to a plain absolute http(s) URL without
 * userinfo, backslash or control characters.
 * @param {string | null | undefined} value
 * @returns {string | null}
 */
export function appReturnTo(value) {
  if (!value || value.length > 8192) return null;
  return /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?(?:\/[^\\\s\u0000-\u001f\u007f]*)?$/.test(value) ? value : null;
}

/** @param {string} name */
export function queryParam(name) {
  return new URLSearchParams(location.search).get(name);
}

/**
 * @template {HTMLElement} T
 * @param {string} id
 * @returns {T}
 */
export function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error('missing element #' + id);
  return /** @type {T} */ (element);
}

/**
 * Fills `{name}` placeholders (src/i18n/format-message.ts, for the browser).
 * @param {string} template
 * @param {Record<string, string | number>} values
 */
export function format(template, values) {
  return template.replace(/\{([a-zA-Z_]+)\}/g, (match, key) =>
    Object.hasOwn(values, key) ? String(values[key]) : match,
  );
}
