import type { Lifecycle, ResponseObject } from '@hapi/hapi';
import type { Config } from '../config/types.js';
import { contentSecurityPolicy, logoSource } from '../web/index.js';

/** Set on a response by leaveToOperator. */
interface PagePolicyState {
  operatorFrontEnd?: true;
}

/**
 * onPreResponse, after the error renderer: every HTML response gets the
 * Content-Security-Policy of idp's pages unless its handler set a policy of
 * its own (the form_post page, the API reference) or it is the operator's
 * front end. Decided by the content type, so a new page cannot be forgotten.
 * The one widening is img-src for branding.logo_url and the login buttons'
 * identity_providers[].icon_url on another host (or a data: URI), as the
 * config had them at start. X-Content-Type-Options and Referrer-Policy come with hapi's
 * `security` route option, on every response (create-server.ts).
 */
export function createPagePolicy(config: Pick<Config, 'branding' | 'server' | 'identityProviders'>): Lifecycle.Method {
  const ownOrigin = new URL(config.server.baseUrl).origin;
  const images = [config.branding.logoUrl, ...config.identityProviders.map((provider) => provider.iconUrl)].map((url) =>
    logoSource(url, ownOrigin),
  );
  const sources = [...new Set(images.filter((source): source is string => source !== null))];
  const idpPagePolicy = contentSecurityPolicy(sources.length === 0 ? {} : { 'img-src': `'self' ${sources.join(' ')}` });
  return (request, h) => {
    // contentType (hapi's documented getter, missing from its types) includes the
    // default a string payload gets at transmission: text/html.
    const response = request.response as ResponseObject & { readonly contentType: string | null };
    if ((response.app as PagePolicyState).operatorFrontEnd) return h.continue;
    const headers: Partial<Record<string, unknown>> = response.headers;
    if (headers['content-security-policy'] !== undefined) return h.continue;
    // A JSON answer (an object with no type of its own) is no page: skip the contentType getter, which builds a string.
    if (
      response.variety === 'plain' &&
      typeof response.source === 'object' &&
      response.source !== null &&
      !Buffer.isBuffer(response.source) &&
      headers['content-type'] === undefined
    )
      return h.continue;
    if (!response.contentType?.startsWith('text/html')) return h.continue;
    response.header('content-security-policy', idpPagePolicy);
    return h.continue;
  };
}

/**
 * Marks a file or answer of the operator's own front end (a `static`
 * directory of theirs, or the `proxy` upstream): idp does not know what it
 * loads or calls, so it sends no policy; the front end sets its own (a
 * <meta http-equiv> tag, or the header from the proxied server, which
 * passes through).
 */
export function leaveToOperator<T extends ResponseObject>(response: T): T {
  (response.app as PagePolicyState).operatorFrontEnd = true;
  return response;
}
