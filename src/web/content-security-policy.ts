/** CSP Level 3 directive names of the pages idp renders, each with its source list. */
export type PolicyDirectives = Readonly<Record<string, string>>;

/**
 * The pages idp renders (the built-in UI, error pages) load their scripts
 * and styles as files from this server, call only its JSON API, and submit
 * no form anywhere but here (they post with fetch): nothing inline, no other
 * host. Nobody may frame them (clickjacking of the sign-in and consent
 * buttons), and `base-uri 'none'` keeps an injected <base> from moving
 * their relative URLs. Directives not listed fall back to default-src 'none'.
 */
const idpPages: PolicyDirectives = {
  'default-src': "'none'",
  'script-src': "'self'",
  'style-src': "'self'",
  'img-src': "'self'",
  'connect-src': "'self'",
  'form-action': "'self'",
  'frame-ancestors': "'none'",
  'base-uri': "'none'",
};

/**
 * The Content-Security-Policy header value of an idp page: the policy
 * above, with the directives a page needs otherwise replaced (the
 * form_post page, the API reference).
 */
export function contentSecurityPolicy(overrides: PolicyDirectives = {}): string {
  return Object.entries({ ...idpPages, ...overrides })
    .map(([name, sources]) => `${name} ${sources}`)
    .join('; ');
}
