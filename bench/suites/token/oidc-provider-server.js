// @ts-check
/**
 * Child process: oidc-provider@9 configured like idp, with its default
 * in-memory adapter (not durable). oidc-provider issues JWT access tokens
 * only for a resource server, hence resourceIndicators with a default
 * resource whose accessTokenFormat is jwt, signed with the same algorithm.
 * Refresh tokens rotate on every use, as idp's do.
 *
 * The user's tokens are minted here directly, as its interactive login
 * would leave them: one saved Grant per refresh token (idp's pool holds one
 * grant per token too). Two workloads cannot use a JWT access token:
 * userinfo refuses a token with an audience other than its own, and
 * introspection refuses structured tokens; both get the opaque access token
 * (stored in the adapter) that its userinfo accepts. Mints more refresh
 * tokens when asked ({ mintRefreshTokens: n }). argv: <alg> <port>
 */
import { generateKeyPairSync } from 'node:crypto';
import Provider from 'oidc-provider';
import { benchClients, benchUser, refreshPoolSize, userScope } from './bench-clients.js';

const alg = process.argv[2] ?? 'ES256';
const jwk = (/** @type {import('node:crypto').KeyObject} */ key, /** @type {string} */ alg) => ({
  ...key.export({ format: 'jwk' }),
  use: 'sig',
  alg,
});
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

const port = Number(process.argv[3] ?? 0);
const issuer = `http://127.0.0.1:${port}`;
const resource = 'urn:bench:api';
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
    {
      client_id: benchClients.web.id,
      client_secret: benchClients.web.secret,
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: ['https://web.example.com/callback'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: alg,
    },
  ],
  jwks: { keys: [jwk(rsa, 'RS256'), jwk(ec, 'ES256')] },
  scopes: ['api:read', ...userScope.split(' ')],
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  findAccount: async (_ctx, sub) =>
    sub === benchUser.sub
      ? { accountId: sub, claims: async () => ({ sub, email: benchUser.email, email_verified: true }) }
      : undefined,
  rotateRefreshToken: true,
  // The same lifetime as idp's access tokens (tokens.access_token_ttl_seconds default).
  ttl: { ClientCredentials: 3600, AccessToken: 3600 },
  features: {
    clientCredentials: { enabled: true },
    // Its default policy, stated so that it does not warn.
    introspection: {
      enabled: true,
      allowedPolicy: async (_ctx, client, token) =>
        client.clientAuthMethod !== 'none' || token.clientId === client.clientId,
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      // The user's scopes too, so that its JWT access tokens carry the scope claim idp's carry.
      getResourceServerInfo: () => ({
        scope: `api:read ${userScope}`,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg } },
      }),
    },
  },
});

const client = await provider.Client.find(benchClients.web.id);
const authTime = Math.floor(Date.now() / 1000);
async function saveGrant() {
  const grant = new provider.Grant({ accountId: benchUser.sub, clientId: benchClients.web.id });
  grant.addOIDCScope(userScope);
  grant.addResourceScope(resource, userScope);
  return grant.save();
}
const mintRefreshToken = async () =>
  new provider.RefreshToken({
    accountId: benchUser.sub,
    client,
    grantId: await saveGrant(),
    scope: userScope,
    resource,
    gty: 'authorization_code',
    authTime,
  }).save();
/** @param {number} count */
async function mintRefreshTokens(count) {
  const tokens = [];
  for (let i = 0; i < count; i++) tokens.push(await mintRefreshToken());
  return tokens;
}

const tokens = {
  accessToken: await new provider.AccessToken({
    accountId: benchUser.sub,
    client,
    grantId: await saveGrant(),
    scope: userScope,
    gty: 'authorization_code',
  }).save(),
  refreshTokens: await mintRefreshTokens(refreshPoolSize),
  introspectedRefreshToken: await mintRefreshToken(),
};
const paths = {
  token: '/token',
  userinfo: '/me',
  introspection: '/token/introspection',
  discovery: '/.well-known/openid-configuration',
  jwks: '/jwks',
};
const server = provider.listen(port, '127.0.0.1', () => process.send?.({ url: issuer, paths, ...tokens }));
// The suite tops up its pool of refresh tokens between runs.
process.on(
  'message',
  (/** @type {{ mintRefreshTokens: number }} */ message) =>
    void mintRefreshTokens(message.mintRefreshTokens).then(
      (refreshTokens) => process.send?.({ refreshTokens }),
      (error) => process.send?.({ error: String(error) }),
    ),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
