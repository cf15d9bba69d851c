// @ts-check
/**
 * Child process: a fresh bench database (SQLite or PostgreSQL) with 1,000
 * database users, and the real idp (dist/) on 127.0.0.1 with registration
 * (e-mail verification required) and e-mail on. The scheduler is off, so
 * the mail jobs the requests queue wait in the database: the bench measures
 * the requests, not SMTP. argv: <sqlite|postgres> [events-off] <port>
 * (events-off: the audit event log writes nothing, the peer that
 * bench/suites/events.js compares with).
 */
import { pino } from 'pino';
import { hashPassword } from '../../../dist/accounts/passwords.js';
import { createApp } from '../../../dist/app.js';
import { loadConfigText } from '../../../dist/config/index.js';
import { knexUserRepository } from '../../../dist/storage/knex/users.js';
import { createBenchDatabase } from '../../lib/bench-database.js';
import { seededEmail, seededUsers } from './bench-accounts.js';

const kind = /** @type {'sqlite' | 'postgres'} */ (process.argv[2] ?? 'sqlite');
const port = Number(process.argv.at(-1) ?? 0);
const eventsOff = process.argv.includes('events-off');

// forgot is rate limited per e-mail and per address with the login counters:
// the bench raises the limit so that nothing it measures is a 429.
const yaml = `
server: { base_url: "http://127.0.0.1:${port}", host: 127.0.0.1, port: ${port} }
database: { client: sqlite, filename: unused.sqlite }
security:
  secret: bench-secret-0123456789abcdef-0123456789
  login_rate_limit: { max_attempts: 1000000000, window_seconds: 1 }
registration: { enabled: true, email_verification_required: true }
email: { enabled: true, smtp: { host: 127.0.0.1, port: 9 } }
logging: { level: silent }
scheduler: { enabled: false }
frontend: { enabled: false }
`;
const loaded = loadConfigText(yaml, { file: 'bench-accounts.yaml', env: {}, cwd: process.cwd() });
if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('; '));
const database = await createBenchDatabase(kind);
const config = { ...loaded.config, database: database.config };

const passwordHash = await hashPassword('bench password');
const now = Date.now();
await knexUserRepository.insertMany(
  database.storage.db,
  Array.from({ length: seededUsers }, (_, i) => ({
    sub: `member-${i}`,
    managedBy: /** @type {const} */ ('database'),
    email: seededEmail(i),
    role: /** @type {const} */ ('user'),
    emailVerified: true,
    emailVerificationRequired: false,
    passwordHash,
    secondFactorRequired: false,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  })),
);

// The peer without an event log: the same server, with the one insert an event costs taken out.
const storage = eventsOff
  ? {
      ...database.storage,
      repositories: {
        ...database.storage.repositories,
        events: { ...database.storage.repositories.events, append: async () => {} },
      },
    }
  : database.storage;
const app = await createApp(config, { storage, logger: pino({ level: 'silent' }) });
const url = await app.start();
process.send?.({ url });
process.on(
  'SIGTERM',
  () =>
    void app
      .stop({ timeoutMs: 200 })
      .then(() => database.destroy())
      .finally(() => process.exit(0)),
);
