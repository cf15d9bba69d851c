// @ts-check
/**
 * Child process: the real idp (dist/) on 127.0.0.1 with a fresh bench
 * database (SQLite or PostgreSQL, bench/lib/bench-database.js, dropped on
 * SIGTERM), a client_credentials client and a web client, then tells the
 * parent its URL and paths, a user access token, a pool of refresh tokens
 * and one more refresh token, kept out of the pool, to introspect. Mints
 * more refresh tokens when asked ({ mintRefreshTokens: n }).
 * With `access`, both clients admit only the group `staff`, which the user
 * is in, and the user's tokens carry the `groups` scope: the cost of access
 * checks and the groups claim, measured beside the same server without them.
 * With `metrics`, metrics.enabled on a free port: the request histogram,
 * the counters and their listener, measured beside the same server without.
 * argv: <alg> <sqlite|postgres> [access] [metrics] <port>
 */
import { createHash, randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { loadConfigText } from '../../../dist/config/index.js';
import { createApp } from '../../../dist/app.js';
import { applyConfig } from '../../../dist/gitops/index.js';
import { createBenchDatabase } from '../../lib/bench-database.js';
import { benchClients, benchUser, refreshPoolSize, userScope } from './bench-clients.js';

const alg = process.argv[2] ?? 'ES256';
const kind = /** @type {'sqlite' | 'postgres'} */ (process.argv[3] ?? 'sqlite');
const port = Number(process.argv.at(-1) ?? 0);
const withAccess = process.argv.includes('access');
const withMetrics = process.argv.includes('metrics');
const scope = withAccess ? `${userScope} groups` : userScope;
const access = withAccess ? '\n    access: { groups: [staff] }' : '';
// The web client's default scopes, and groups.
const webScopes = withAccess ? '\n    scopes: [openid, profile, email, offline_access, groups]' : '';
// The web client's ID tokens use the same algorithm as the access tokens, as oidc-provider's do.
const yaml = `
server: { base_url: "http://127.0.0.1:${port}", host: 127.0.0.1, port: ${port} }
database: { client: sqlite, filename: unused.sqlite }
security: { secret: bench-secret-0123456789abcdef-0123456789 }
tokens: { signing_alg: ${alg} }
logging: { level: silent }
scheduler: { enabled: false }
frontend: { enabled: false }
metrics: { enabled: ${withMetrics}, host: 127.0.0.1, port: 0 }
users:
  - { sub: ${benchUser.sub}, email: ${benchUser.email}, password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$ISO7kkvFzh19GM8qB7patN3C3Y9HHsjlVTfEZ9T600Y" }
clients:
  - client_id: svc
    name: Service
    client_secret: ${benchClients.svc.secret}
    grant_types: [client_credentials]
    scopes: [api:read]${access}
  - client_id: web
    name: Web
    client_secret: ${benchClients.web.secret}
    redirect_uris: [https://web.example.com/callback]${webScopes}
    id_token_signed_response_alg: ${alg}${access}
${withAccess ? `groups:\n  - { id: staff, members: [${benchUser.sub}] }\n` : ''}`;
const loaded = loadConfigText(yaml, { file: 'bench-token.yaml', env: {}, cwd: process.cwd() });
if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('; '));
const database = await createBenchDatabase(kind);
const config = { ...loaded.config, database: database.config };
await applyConfig(database.storage, config);
const app = await createApp(config, { storage: database.storage, logger: pino({ level: 'silent' }) });
const url = await app.start();

/** A code inserted as the authorization endpoint would, redeemed once: a token response with a refresh token. */
async function mintUserTokens() {
  const code = randomBytes(32).toString('base64url');
  const verifier = randomBytes(32).toString('base64url');
  const now = Date.now();
  await database.storage.repositories.authorizationCodes.insert(database.storage.db, {
    codeHash: createHash('sha256').update(code).digest('base64url'),
    grantId: randomBytes(16).toString('base64url'),
    clientId: benchClients.web.id,
    sub: benchUser.sub,
    redirectUri: 'https://web.example.com/callback',
    scopes: scope.split(' '),
    nonce: null,
    codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
    codeChallengeMethod: 'S256',
    authTime: now,
    amr: ['pwd'],
    sessionId: null,
    expiresAt: now + 60_000,
    consumedAt: null,
    createdAt: now,
  });
  const response = await app.server.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { authorization: benchClients.web.basic, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent('https://web.example.com/callback')}&code_verifier=${verifier}`,
  });
  if (response.statusCode !== 200) throw new Error(`minting tokens failed: ${response.payload}`);
  return JSON.parse(response.payload);
}

/** @param {number} count */
async function mintRefreshTokens(count) {
  const tokens = [];
  for (let i = 0; i < count; i++) tokens.push((await mintUserTokens()).refresh_token);
  return tokens;
}

const first = await mintUserTokens();
const paths = {
  token: '/oauth2/token',
  userinfo: '/oauth2/userinfo',
  introspection: '/oauth2/introspect',
  discovery: '/.well-known/openid-configuration',
  jwks: '/oauth2/jwks',
};
process.send?.({
  url,
  paths,
  accessToken: first.access_token,
  refreshTokens: [first.refresh_token, ...(await mintRefreshTokens(refreshPoolSize - 1))],
  introspectedRefreshToken: (await mintUserTokens()).refresh_token,
});
// The suite tops up its pool of refresh tokens between runs.
process.on(
  'message',
  (/** @type {{ mintRefreshTokens: number }} */ message) =>
    void mintRefreshTokens(message.mintRefreshTokens).then(
      (refreshTokens) => process.send?.({ refreshTokens }),
      (error) => process.send?.({ error: String(error) }),
    ),
);
process.on(
  'SIGTERM',
  () =>
    void app
      .stop({ timeoutMs: 200 })
      .then(() => database.destroy())
      .finally(() => process.exit(0)),
);
