import type { AccessTokenClaims } from './verify-access-token.js';

/**
 * Access tokens whose signature and claims were verified, by their exact
 * text, until they expire (issue #16, lever 4): a resource server calls
 * userinfo or introspection with the same token again and again, and the
 * ES256 verification is most of such a request's CPU. What the text says
 * cannot change; whether the token is still live is asked every time
 * (src/oidc/cached-reads.ts). Its key stays published past every token it
 * signed (signingKeyRetireAfterMs), so no key change can unmake a hit.
 */
export interface VerifiedTokenCache {
  /** The claims, when `token` was verified and is still within exp and nbf at `nowSeconds` (± the leeway). */
  get(token: string, nowSeconds: number): AccessTokenClaims | undefined;
  set(token: string, claims: AccessTokenClaims): void;
}

export function createVerifiedTokenCache(options: {
  maxEntries: number;
  clockToleranceSeconds: number;
}): VerifiedTokenCache {
  const entries = new Map<string, AccessTokenClaims>();
  const tolerance = options.clockToleranceSeconds;
  return {
    get(token, now) {
      const claims = entries.get(token);
      if (!claims) return undefined;
      const nbf = claims.claims.nbf;
      // jose's own rules: expired once exp <= now - leeway, not yet valid while nbf > now + leeway.
      if (claims.exp <= now - tolerance || (typeof nbf === 'number' && nbf > now + tolerance)) {
        entries.delete(token);
        return undefined;
      }
      return claims;
    },
    set(token, claims) {
      if (entries.size >= options.maxEntries && !entries.has(token))
        entries.delete(entries.keys().next().value as string);
      entries.set(token, claims);
    },
  };
}
