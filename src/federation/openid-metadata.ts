import type { Clock } from '../clock.js';
import { asObject, fetchUpstreamJson } from './fetch-upstream.js';
import { UpstreamError } from './federation-error.js';

/** What idp needs from an OpenID upstream's discovery document (OpenID Connect Discovery 1.0 §3). */
export interface OpenIdMetadata {
  issuer: string;
  jwksUri: string;
  userinfoEndpoint: string | null;
}

/** A found document is kept this long; a failed look-up is not kept at all. */
const cacheMs = 60 * 60 * 1000;

/**
 * The issuer behind an authorization endpoint. The config names no issuer
 * (docs/configuration.md: the identity_providers group has no such field), so idp finds the discovery document the
 * way its URL is built (Discovery §4: `{issuer}/.well-known/openid-configuration`):
 * it tries each path prefix of the authorization URL, shortest first, and
 * takes the first document whose `authorization_endpoint` IS that URL and
 * whose `issuer` is the prefix it was fetched from (§4.3). The ID token's
 * `iss` must then equal that issuer, and its signature a key of `jwks_uri`.
 */
export function createOpenIdMetadataCache(deps: { clock: Clock; timeoutMs: number }) {
  const found = new Map<string, { metadata: OpenIdMetadata; until: number }>();

  async function discover(authorizationUrl: string): Promise<OpenIdMetadata> {
    const url = new URL(authorizationUrl);
    const segments = url.pathname.split('/').filter(Boolean);
    const tried: string[] = [];
    for (let length = 0; length < segments.length; length += 1) {
      const issuer = `${url.origin}${segments
        .slice(0, length)
        .map((s) => `/${s}`)
        .join('')}`;
      const where = `${issuer}/.well-known/openid-configuration`;
      tried.push(where);
      const { status, body } = await fetchUpstreamJson('discovery', where, {}, deps.timeoutMs).catch(() => ({
        status: 0,
        body: null,
      }));
      if (status !== 200 || typeof body !== 'object' || body === null) continue;
      const document = asObject('discovery', body);
      if (document.authorization_endpoint !== authorizationUrl || document.issuer !== issuer) continue;
      if (typeof document.jwks_uri !== 'string') throw new UpstreamError(`discovery: ${where} names no jwks_uri`);
      const userinfo = document.userinfo_endpoint;
      return { issuer, jwksUri: document.jwks_uri, userinfoEndpoint: typeof userinfo === 'string' ? userinfo : null };
    }
    throw new UpstreamError(`discovery: no OpenID configuration for ${authorizationUrl} (tried ${tried.join(', ')})`);
  }

  return {
    async metadataFor(authorizationUrl: string): Promise<OpenIdMetadata> {
      const now = deps.clock.now();
      const cached = found.get(authorizationUrl);
      if (cached && cached.until > now) return cached.metadata;
      const metadata = await discover(authorizationUrl);
      found.set(authorizationUrl, { metadata, until: now + cacheMs });
      return metadata;
    },
  };
}

export type OpenIdMetadataCache = ReturnType<typeof createOpenIdMetadataCache>;
