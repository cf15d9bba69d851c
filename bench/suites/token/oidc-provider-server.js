// @ts-check
/**
 * Child process: oidc-provider@9 configured like idp for client_credentials
 * with JWT access tokens. oidc-provider issues JWT access tokens only for a
 * resource server, hence resourceIndicators with a default resource whose
 * accessTokenFormat is jwt, signed with the same algorithm. argv: <alg> <port>
 */
import { generateKeyPairSync } from 'node:crypto';
import Provider from 'oidc-provider';
import { benchClients } from './bench-clients.js';

const alg = process.argv[2] ?? 'ES256';
const jwk = (/** @type {import('node:crypto').KeyObject} */ key, /** @type {string} */ alg) => ({ ...key.export({ format: 'jwk' }), use: 'sig', alg });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

const port = Number(process.argv[3] ?? 0);
const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: benchClients.svc.id,
      client_secret: benchClients.svc.secret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: [jwk(rsa, 'RS256'), jwk(ec, 'ES256')] },
  scopes: ['api:read'],
  // The same lifetime as idp's access tokens (tokens.access_token_ttl_seconds default).
  ttl: { ClientCredentials: 3600 },
  features: {
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => 'urn:bench:api',
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope: 'api:read', accessTokenFormat: 'jwt', jwt: { sign: { alg } } }),
    },
  },
});
const server = provider.listen(port, '127.0.0.1', () => process.send?.({ url: issuer }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
