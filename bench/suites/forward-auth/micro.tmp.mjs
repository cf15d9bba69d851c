import { pino } from 'pino';
import { loadConfigText } from '../../../dist/config/index.js';
import { createApp } from '../../../dist/app.js';
import { applyConfig } from '../../../dist/gitops/index.js';
import { hashPassword } from '../../../dist/accounts/passwords.js';
import { createBenchDatabase } from '../../lib/bench-database.js';
import { forwardAuthPaths, identityHeaders } from '../../../dist/http/routes/forward-auth-routes.js';
import { createSessionCookieCache } from '../../../dist/http/auth/session-cookie-cache.js';
import { hashSessionId } from '../../../dist/accounts/sessions.js';
const kind = process.argv[2] ?? 'sqlite';
const passwordHash = await hashPassword('pw');
const yaml = `
server: { base_url: "http://127.0.0.1:1", host: 127.0.0.1, port: 1, trust_proxy: [127.0.0.1] }
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
const loaded = loadConfigText(yaml, { file: 'x.yaml', env: {}, cwd: process.cwd() });
const database = await createBenchDatabase(kind);
const config = { ...loaded.config, database: database.config };
await applyConfig(database.storage, config);
const app = await createApp(config, { storage: database.storage, logger: pino({ level: 'silent' }) });
const login = await app.server.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'bench@example.com', password: 'pw' } });
const cookie = [login.headers['set-cookie']].flat().find((c) => c.startsWith('session=')).split(';')[0];
const headers = { host: '127.0.0.1:1', cookie, 'x-original-url': 'https://app.example.com/dashboard?panel=1', connection: 'keep-alive' };
const route = forwardAuthPaths['/api/auth-request'];
const sessionIdOf = createSessionCookieCache();
const server = app.server;
const fa = app.deps?.forwardAuth?.forwardAuth;
function time(name, n, f) { for (let i = 0; i < 2000; i++) f(); const t = process.hrtime.bigint(); for (let i = 0; i < n; i++) f(); console.log(name.padEnd(20), (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(2), 'µs'); }
async function timeAsync(name, n, batch, f) { for (let i = 0; i < 200; i++) await Promise.all(Array.from({ length: batch }, f)); const t = process.hrtime.bigint(); for (let i = 0; i < n / batch; i++) await Promise.all(Array.from({ length: batch }, f)); console.log(name.padEnd(20), (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(2), 'µs'); }
time('joi validate', 100000, () => route.headers.validate(headers));
time('original', 100000, () => route.original(headers));
time('hashSessionId', 100000, () => hashSessionId('abcdefghijklmnopqrstuvwxyz0123456789abcdefg'));
await timeAsync('sessionIdOf', 100000, 25, () => sessionIdOf({ headers, server }));
const sid = await sessionIdOf({ headers, server });
const orig = route.original(headers).request;
console.log(Object.keys(app));
const check = (app.forwardAuth ?? fa);
if (check) {
  await timeAsync('check x25', 50000, 25, () => check.check(orig, sid));
  await timeAsync('check x1', 5000, 1, () => check.check(orig, sid));
  await timeAsync('check x250', 100000, 250, () => check.check(orig, sid));
  const cr = app.deps.protocol.engine.cachedReads; await timeAsync('findSession x250', 100000, 250, () => cr.findSession('abc'));
  await timeAsync('findUser obs x250', 100000, 250, () => cr.findUser('bench-user', 1));
  await timeAsync('resolved x250', 100000, 250, () => Promise.resolve(1));
}
const v = { 'Remote-User': 'bench-user', 'Remote-Email': 'bench@example.com', 'Remote-Name': 'bench@example.com', 'Remote-Groups': 'staff' };
time('identityHeaders', 100000, () => identityHeaders(v));
process.exit(0);
