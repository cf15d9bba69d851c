// @ts-check
/**
 * Child process: a fresh bench database (SQLite or PostgreSQL) with the
 * sign-in suite's users, and the real idp (dist/) on 127.0.0.1 under the
 * base URL http://localhost:<port> (WebAuthn needs a host name as RP ID).
 * Tells the parent its URL, the shared TOTP secret and, per passkey user,
 * the private key and credential id the suite signs assertions with.
 * argv: <sqlite|postgres> <port>
 *
 * Factors are seeded through the repositories with the app's own sealing
 * (dist/security): the TOTP secret sealed per user, each passkey's COSE
 * public key. One argon2id hash and one TOTP secret are shared by every
 * user; replay protection is per user, so that costs the bench nothing.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { hashPassword } from '../../../dist/accounts/passwords.js';
import { generateTotpSecret } from '../../../dist/accounts/totp.js';
import { createApp } from '../../../dist/app.js';
import { loadConfigText } from '../../../dist/config/index.js';
import { seal, sealingKey } from '../../../dist/security/index.js';
import { createBenchDatabase } from '../../lib/bench-database.js';
import { coseKey } from './software-passkey.js';
import { benchEmail, benchPassword, passkeyUserCount, passwordUserCount, totpUserCount } from './sign-in-users.js';

const kind = /** @type {'sqlite' | 'postgres'} */ (process.argv[2] ?? 'sqlite');
const port = Number(process.argv[3] ?? 0);
const secret = 'bench-secret-0123456789abcdef-0123456789';

// The login rate limit is raised: nothing measured may be a 429 of the limiter.
const yaml = `
server: { base_url: "http://localhost:${port}", host: 127.0.0.1, port: ${port} }
database: { client: sqlite, filename: unused.sqlite }
security:
  secret: ${secret}
  login_rate_limit: { max_attempts: 1000000000, window_seconds: 1 }
logging: { level: silent }
scheduler: { enabled: false }
frontend: { enabled: false }
`;
const loaded = loadConfigText(yaml, { file: 'bench-sign-in.yaml', env: {}, cwd: process.cwd() });
if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('; '));
const database = await createBenchDatabase(kind);
const config = { ...loaded.config, database: database.config };
const { users, totp, passkeys } = database.storage.repositories;

const now = Date.now();
const passwordHash = await hashPassword(benchPassword);
/** @param {string} email @returns {import('../../../src/model/index.js').UserRecord} */
const user = (email) => ({
  sub: email.split('@')[0],
  managedBy: 'database',
  email,
  role: 'user',
  emailVerified: true,
  emailVerificationRequired: false,
  passwordHash,
  secondFactorRequired: false,
  name: null,
  givenName: null,
  familyName: null,
  locale: null,
  deletedAt: null,
  createdAt: now,
  updatedAt: now,
});

const totpSecret = generateTotpSecret();
const totpKey = sealingKey(secret, 'totp secrets');
const passkeyUsers = [];
await database.storage.transaction(async (tx) => {
  const all = [
    ...Array.from({ length: passwordUserCount }, (_, i) => user(benchEmail('password', i))),
    ...Array.from({ length: totpUserCount }, (_, i) => user(benchEmail('totp', i))),
    ...Array.from({ length: passkeyUserCount }, (_, i) => user(benchEmail('passkey', i))),
  ];
  await users.insertMany(tx, all);
  for (let i = 0; i < totpUserCount; i++) {
    const sub = user(benchEmail('totp', i)).sub;
    const sealedSecret = seal(Buffer.from(totpSecret), totpKey, sub);
    await totp.savePending(tx, { sub, sealedSecret, confirmedAt: null, lastUsedStep: null, createdAt: now });
    // Confirmed at step 0: every real step is later.
    await totp.confirm(tx, sub, sealedSecret, 0, now);
  }
  for (let i = 0; i < passkeyUserCount; i++) {
    const sub = user(benchEmail('passkey', i)).sub;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentialId = randomBytes(32).toString('base64url');
    await passkeys.insert(tx, {
      id: randomUUID(),
      sub,
      credentialId,
      name: 'bench',
      publicKey: coseKey(publicKey).toString('base64url'),
      signCount: 0,
      transports: ['internal'],
      deviceType: 'multiDevice',
      backedUp: true,
      createdAt: now,
      lastUsedAt: null,
    });
    passkeyUsers.push({ sub, credentialId, privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }) });
  }
});

const app = await createApp(config, { storage: database.storage, logger: pino({ level: 'silent' }) });
await app.start();
process.send?.({ url: `http://127.0.0.1:${port}`, origin: `http://localhost:${port}`, totpSecret, passkeyUsers });
process.on(
  'SIGTERM',
  () =>
    void app
      .stop({ timeoutMs: 200 })
      .then(() => database.destroy())
      .finally(() => process.exit(0)),
);
