// @ts-check
/**
 * Child process: the real idp (dist/) on 127.0.0.1 with a fresh bench
 * database, one forward_auth app that admits the group `staff` (the user is
 * in it), server.trust_proxy 127.0.0.1 (the load generator plays the
 * proxy), and a signed-in session whose cookie it hands the parent. It
 * counts the statements its database runs: { statements: 'reset' } zeroes
 * the count, { statements: 'read' } answers it with the statements by text.
 * argv: <sqlite|postgres> <port>
 */
import { subscribe } from 'node:diagnostics_channel';
import { pino } from 'pino';
import { loadConfigText } from '../../../dist/config/index.js';
import { createApp } from '../../../dist/app.js';
import { applyConfig } from '../../../dist/gitops/index.js';
import { hashPassword } from '../../../dist/accounts/passwords.js';
import { createBenchDatabase } from '../../lib/bench-database.js';

const kind = /** @type {'sqlite' | 'postgres'} */ (process.argv[2] ?? 'sqlite');
const port = Number(process.argv.at(-1) ?? 0);
const password = 'bench-password';
const passwordHash = await hashPassword(password);
const yaml = `
server: { base_url: "http://127.0.0.1:${port}", host: 127.0.0.1, port: ${port}, trust_proxy: [127.0.0.1] }
database: { client: sqlite, filename: unused.sqlite }
security: { secret: bench-secret-0123456789abcdef-0123456789 }
logging: { level: silent }
scheduler: { enabled: false }
frontend: { enabled: false }
users:
  - { sub: bench-user, email: bench@example.com, password_hash: "${passwordHash}" }
groups:
  - { id: staff, members: [bench-user] }
forward_auth:
  apps:
    - { host: app.example.com, access: { groups: [staff] } }
`;
const loaded = loadConfigText(yaml, { file: 'bench-forward-auth.yaml', env: {}, cwd: process.cwd() });
if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('; '));
const database = await createBenchDatabase(kind);
const config = { ...loaded.config, database: database.config };
await applyConfig(database.storage, config);
/** @type {Map<string, number>} */
const statements = new Map();
const count = (/** @type {string} */ sql) => statements.set(sql, (statements.get(sql) ?? 0) + 1);
// The generation read runs on a connection of its own, outside knex: its statements are published on this channel.
subscribe('idp:cache-generation-statement', () =>
  count('SELECT generation FROM cache_generation WHERE id = 1 (its own connection)'),
);
const app = await createApp(config, { storage: database.storage, logger: pino({ level: 'silent' }) });
const url = await app.start();

const login = await app.server.inject({
  method: 'POST',
  url: '/api/auth/login',
  payload: { email: 'bench@example.com', password },
});
const setCookie = /** @type {string[] | string | undefined} */ (login.headers['set-cookie']);
const cookie = [setCookie ?? []]
  .flat()
  .find((c) => c.startsWith('session='))
  ?.split(';')[0];
if (login.statusCode !== 200 || !cookie) throw new Error(`bench sign-in failed: ${login.statusCode} ${login.payload}`);

database.db.on('query', (/** @type {{ sql: string }} */ query) => count(query.sql));
process.send?.({ url, cookie });
process.on('message', (/** @type {{ statements: 'reset' | 'read' }} */ message) => {
  if (message.statements === 'reset') statements.clear();
  process.send?.({ statements: Object.fromEntries(statements) });
});
process.on('SIGTERM', () => void app.stop().then(() => database.destroy().then(() => process.exit(0))));
