// @ts-check
/**
 * Child process: a fresh bench database (SQLite or PostgreSQL) holding
 * 100,000 database users and one admin, and the real idp (dist/) on
 * 127.0.0.1 in front of it; tells the parent its URL and how long seeding
 * took. argv: <sqlite|postgres> <port>
 *
 * Seeding goes straight through the user repository's batched insertMany
 * in one transaction, with ONE precomputed argon2id hash shared by every
 * user (hashing 100,000 passwords would take an hour and measure nothing).
 */
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { hashPassword } from '../../../dist/accounts/passwords.js';
import { createApp } from '../../../dist/app.js';
import { loadConfigText } from '../../../dist/config/index.js';
import { applyConfig } from '../../../dist/gitops/index.js';
import { knexUserRepository } from '../../../dist/storage/knex/users.js';
import { createBenchDatabase } from '../../lib/bench-database.js';
import { adminEmail, benchPassword, benchUserCount, benchUserEmail, benchUserSub } from './bench-users.js';

const kind = /** @type {'sqlite' | 'postgres'} */ (process.argv[2] ?? 'sqlite');
const port = Number(process.argv[3] ?? 0);

// Every attempt is counted before verification (src/accounts/login-rate-limit.ts):
// the bench raises the limit so that nothing it measures is a 429 from the limiter.
const yaml = `
server: { base_url: "http://127.0.0.1:${port}", host: 127.0.0.1, port: ${port} }
database: { client: sqlite, filename: unused.sqlite }
security:
  secret: bench-secret-0123456789abcdef-0123456789
  login_rate_limit: { max_attempts: 1000000000, window_seconds: 1 }
logging: { level: silent }
scheduler: { enabled: false }
# The built-in UI: the console's users page (/admin/users) is measured beside the API.
frontend: { enabled: true, mode: static }
`;
const loaded = loadConfigText(yaml, { file: 'bench-admin.yaml', env: {}, cwd: process.cwd() });
if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('; '));
const database = await createBenchDatabase(kind);
const config = { ...loaded.config, database: database.config };
await applyConfig(database.storage, config);

/** @param {number} i @param {string} passwordHash @param {number} now @returns {import('../../../src/storage/repositories.js').UserRecord} */
const user = (i, passwordHash, now) => ({
  sub: benchUserSub(i),
  managedBy: 'database',
  email: benchUserEmail(i),
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

const seedStart = performance.now();
const passwordHash = await hashPassword(benchPassword);
const now = Date.now();
const users = Array.from({ length: benchUserCount }, (_, i) => user(i, passwordHash, now));
users.push({ ...user(0, passwordHash, now), sub: 'bench-admin', email: adminEmail, role: 'admin' });
await database.db.transaction((tx) => knexUserRepository.insertMany(tx, users));
// The state autovacuum would leave: fresh statistics, GIN pending lists merged.
if (kind === 'postgres') await database.db.raw('VACUUM ANALYZE users');
const seedMs = performance.now() - seedStart;

const app = await createApp(config, { storage: database.storage, logger: pino({ level: 'silent' }) });
const url = await app.start();
process.send?.({ url, seedMs });
process.on(
  'SIGTERM',
  () =>
    void app
      .stop({ timeoutMs: 200 })
      .then(() => database.destroy())
      .finally(() => process.exit(0)),
);
