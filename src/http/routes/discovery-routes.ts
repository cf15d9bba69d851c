import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { providerMetadata } from '../../oidc/discovery/index.js';

/** OIDC Discovery 1.0 §4 and the JWK Set (RFC 7517 §5), both public and cacheable for a short while. */
export const discoveryRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'OpenID Provider metadata',
  responses: {
    200: {
      description: 'OpenID Connect Discovery 1.0 §3 metadata',
      schema: Joi.object({ issuer: Joi.string().required() }).unknown(true).label('ProviderMetadata'),
    },
  },
  handler: (deps) => {
    const keys = deps.protocol.engine.keys;
    let algorithms = keys.algorithms();
    let metadata = providerMetadata(deps.protocol.engine.issuer, algorithms);
    return (_request, h) => {
      // Rebuilt only when the set of algorithms with a key changes (the key store keeps the array otherwise).
      if (keys.algorithms() !== algorithms)
        metadata = providerMetadata(deps.protocol.engine.issuer, (algorithms = keys.algorithms()));
      return h.response(metadata).header('cache-control', 'public, max-age=300');
    };
  },
};

/**
 * RFC 8414 §3: OAuth 2.0 clients look for the metadata here. The same
 * document as OpenID Connect Discovery (§4 allows the OIDC members), so
 * both paths always agree.
 */
export const authorizationServerMetadataRoute: RouteSpec = {
  ...discoveryRoute,
  summary: 'OAuth 2.0 Authorization Server Metadata (RFC 8414)',
  description: 'The same document as /.well-known/openid-configuration.',
};

export const jwksRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'Signing keys (JWK Set)',
  description:
    'The public keys of every key that signed a token still valid; a rotated key stays listed until its tokens have expired.',
  responses: {
    200: {
      description: 'RFC 7517 §5 JWK Set',
      schema: Joi.object({ keys: Joi.array().items(Joi.object().unknown(true)).required() }).label('JwkSet'),
    },
  },
  // Short: relying parties must see a new key soon after a rotation.
  handler: (deps) => (_request, h) =>
    h.response(deps.protocol.engine.keys.jwks()).header('cache-control', 'public, max-age=60'),
};
