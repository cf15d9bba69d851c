// @ts-check
/**
 * Child process: the real idp (dist/) on 127.0.0.1 with a fresh SQLite
 * database, a client_credentials client and a web client, then tells the
 * parent its URL, a user access token and a pool of refresh tokens.
 * argv: <alg> <port>
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfigText } from '../../../dist/config/index.js';
import { createApp, openStorage } from '../../../dist/app.js';
import { applyConfig } from '../../../dist/gitops/index.js';
import { benchClients, refreshPoolSize } from './bench-clients.js';

const alg = process.argv[2] ?? 'ES256';
const port = Number(process.argv[3] ?? 0);
const dir = mkdtempSync(path.join(os.tmpdir(), 'idp-bench-token-'));
const yaml = `
server: { base_url: "http://127.0.0.1:${port}", host: 127.0.0.1, port: ${port} }
database: { client: sqlite, filename: ${JSON.stringify(path.join(dir, 'idp.sqlite'))} }
security: { secret: bench-secret-0123456789abcdef-0123456789 }
tokens: { signing_alg: ${alg} }
logging: { level: silent }
scheduler: { enabled: false }
frontend: { enabled: false }
users:
  - { sub: alice, email: alice@example.com, password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$ISO7kkvFzh19GM8qB7patN3C3Y9HHsjlVTfEZ9T600Y" }
clients:
  - client_id: svc
    name: Service
    client_secret: ${benchClients.svc.secret}
    grant_types: [client_credentials]
    scopes: [api:read]
  - client_id: web
    name: Web
    client_secret: ${benchClients.web.secret}
    redirect_uris: [https://web.example.com/callback]
`;
const loaded = loadConfigText(yaml, { file: 'bench-token.yaml', env: {}, cwd: dir });
if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('; '));
const config = loaded.config;
const storage = openStorage(config.database);
await storage.migrate();
await applyConfig(storage, config);
const app = await createApp(config, { storage, logger: pino({ level: 'silent' }) });
const url = await app.start();

/** Codes inserted as the authorization endpoint would, redeemed once each: refresh tokens for the load. */
async function mintUserTokens() {
  const tokens = [];
  for (let i = 0; i < refreshPoolSize; i++) {
    const code = randomBytes(32).toString('base64url');
    const verifier = randomBytes(32).toString('base64url');
    const now = Date.now();
    await storage.repositories.authorizationCodes.insert(storage.db, {
      codeHash: createHash('sha256').update(code).digest('base64url'),
      grantId: randomBytes(16).toString('base64url'),
      clientId: 'web',
      sub: 'alice',
      redirectUri: 'https://web.example.com/callback',
      scopes: ['openid', 'email', 'offline_access'],
      nonce: null,
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
      codeChallengeMethod: 'S256',
      authTime: now,
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
    tokens.push(JSON.parse(response.payload));
  }
  return tokens;
}

const tokens = await mintUserTokens();
process.send?.({ url, accessToken: tokens[0].access_token, refreshTokens: tokens.map((t) => t.refresh_token) });
process.on('SIGTERM', () => void app.stop({ timeoutMs: 200 }).finally(() => process.exit(0)));
