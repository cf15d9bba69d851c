#!/usr/bin/env node
/**
 * Screenshots of every built-in page and of the admin console (docs/ui.md, "How to check a page"): at
 * 360 × 740 and 1280 × 800, light and dark, English and German, written to
 * screenshots/ (git-ignored) for a person to open and look at.
 *
 *   npm run build && node scripts/screenshots.mjs [--only login,consent] [--serve]
 *
 * It runs `idp serve` from dist/ on a free port of 127.0.0.1 with a config
 * that turns every page on (registration, e-mail to a local SMTP sink, terms,
 * groups, a client asking for consent and the groups scope, one that ada may
 * not use, German), drives Debian's Chromium, and with --serve keeps the
 * server running afterwards to click through by hand.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { SMTPServer } from 'smtp-server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'screenshots');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
const keepServing = args.includes('--serve');

/** argon2id of "correct horse battery staple" (test/support/config-fixture.ts). */
const passwordHash =
  '$argon2id$v=19$m=19456,p=1,t=2$c29tZXNhbHRzb21lc2FsdA$ISO7kkvFzh19GM8qB7patN3C3Y9HHsjlVTfEZ9T600Y';
const password = 'correct horse battery staple';

async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A small wordmark, inline, so the shots show a logo and the accent colour (branding.logo_url, primary_color). */
const logo = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="132" height="36" viewBox="0 0 132 36"><rect width="36" height="36" rx="9" fill="#0b7a55"/><path d="M10 26 18 9l8 17h-5l-3-7-3 7z" fill="#fff"/><text x="46" y="26" font-family="Helvetica, Arial, sans-serif" font-size="22" font-weight="700" fill="#0b7a55">Acme</text></svg>',
).toString('base64')}`;

function config({ port, smtpPort, dir }) {
  return `server:
  base_url: http://127.0.0.1:${port}
  host: 127.0.0.1
  port: ${port}
database:
  client: sqlite
  filename: ${path.join(dir, 'idp.sqlite')}
security:
  secret: screenshots-secret-screenshots-secret-0123
  # Every shot asks for a link from the same address.
  login_rate_limit: { max_attempts: 1000, window_seconds: 60 }
logging:
  level: warn
i18n:
  default_locale: en
  locales: [en, de]
branding:
  name: Acme
  logo_url: "${logo}"
  primary_color: "#0b7a55"
registration:
  enabled: true
  email_verification_required: true
  signup_notice:
    en: 'By creating an account you accept our <a href="https://acme.example/privacy">privacy notice</a>.'
    de: 'Mit dem Erstellen eines Kontos akzeptieren Sie unsere <a href="https://acme.example/privacy">Datenschutzhinweise</a>.'
email:
  enabled: true
  from: Acme <no-reply@acme.example>
  smtp:
    host: 127.0.0.1
    port: ${smtpPort}
account_deletion:
  enabled: true
terms:
  - id: tos
    version: "1"
    required: true
    consent_mode: explicit
    content:
      en: { title: Terms of Service, type: link, content: "https://acme.example/terms" }
      de: { title: Nutzungsbedingungen, type: link, content: "https://acme.example/agb" }
  - id: privacy
    version: "1"
    required: true
    consent_mode: implicit
    content:
      en: { title: Privacy notice, type: link, content: "https://acme.example/privacy" }
      de: { title: Datenschutzhinweise, type: link, content: "https://acme.example/datenschutz" }
users:
  - sub: ada
    email: ada@acme.example
    name: Ada Lovelace
    password_hash: "${passwordHash}"
  - sub: admin
    email: admin@acme.example
    role: admin
    password_hash: "${passwordHash}"
groups:
  - id: ops
    name: Operations
    members: [admin]
  - { id: sre, name: Site reliability, members: [ada] }
  - { id: dev, name: Developers, members: [ada] }
clients:
  - client_id: notes
    name: Acme Notes
    client_secret: notes-client-secret-0123456789abcdef
    redirect_uris: [https://notes.acme.example/callback]
    post_logout_redirect_uris: [https://notes.acme.example/]
    scopes: [openid, profile, email, offline_access, groups]
  # Only for the operations group: ada sees the access-denied page.
  - client_id: wiki
    name: Acme Wiki
    client_secret: wiki-client-secret-0123456789abcdef
    redirect_uris: [https://wiki.acme.example/callback]
    access:
      groups: [ops]
`;
}

async function startServer() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'idp-screens-'));
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _s, done) => stream.resume().on('end', () => done()),
  });
  const smtpPort = await freePort();
  await new Promise((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
  const port = await freePort();
  const file = path.join(dir, 'idp.yaml');
  await writeFile(file, config({ port, smtpPort, dir }));
  const server = spawn(process.execPath, [path.join(root, 'bin/idp'), 'serve', '-c', file], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    const healthy = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (attempt > 100) throw new Error('idp serve did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await createDatabaseUser(url);
  return {
    url,
    async stop() {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
      smtp.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** grace@acme.example, a database-managed user (whose account page has every section), created through the admin API. */
async function createDatabaseUser(url) {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@acme.example', password }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const created = await fetch(`${url}/api/admin/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ email: 'grace@acme.example', password, email_verified: true }),
  });
  if (created.status !== 201) throw new Error(`creating grace@acme.example: ${created.status} ${await created.text()}`);
}

/** An authorization request of a demo client, as a relying party would send it. */
function authorizeUrl(url, clientId = 'notes') {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: `https://${clientId}.acme.example/callback`,
    scope: 'openid email profile offline_access groups',
    state: 'screens',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  return `${url}/oauth2/authorize?${query}`;
}

async function signIn(page, url, email = 'ada@acme.example') {
  const response = await page.request.post(`${url}/api/auth/login`, {
    data: { email, password },
    headers: { origin: url },
  });
  if (!response.ok()) throw new Error(`sign-in failed: ${response.status()}`);
  // The terms step comes before consent: accepted here, as the terms page would.
  const accepted = await page.request.post(`${url}/api/terms/accept`, {
    data: {
      terms: [
        { id: 'tos', version: '1' },
        { id: 'privacy', version: '1' },
      ],
    },
    headers: { origin: url },
  });
  if (!accepted.ok()) throw new Error(`accepting the terms failed: ${accepted.status()}`);
}

/** Each shot: a name and how to bring the page into the state to show. */
const shots = [
  { name: 'login', go: (page, url) => page.goto(`${url}/login`) },
  {
    name: 'login-client-error',
    async go(page, url) {
      await page.goto(authorizeUrl(url));
      await page.waitForURL((u) => u.pathname === '/login');
      await page.locator('#email').fill('ada@acme.example');
      await page.locator('#password').fill('wrong password');
      await page.locator('#login-form button[type=submit]').click();
      await page.locator('#login-summary p').waitFor();
    },
  },
  {
    name: 'login-validation',
    async go(page, url) {
      await page.goto(`${url}/login`);
      await page.locator('#login-form button[type=submit]').click();
      await page.locator('#login-summary li').first().waitFor();
    },
  },
  { name: 'register', go: (page, url) => page.goto(`${url}/register`) },
  {
    name: 'register-errors',
    async go(page, url) {
      await page.goto(`${url}/register`);
      await page.locator('#email').fill('not-an-address');
      await page.locator('#password').fill('short');
      await page.locator('#register-form button[type=submit]').click();
      await page.locator('#register-summary li').first().waitFor();
    },
  },
  {
    name: 'verify-email-failed',
    go: (page, url) =>
      page.goto(`${url}/verify-email?token=not-a-real-token`).then(() => page.locator('#verify-failed').waitFor()),
  },
  { name: 'forgot-password', go: (page, url) => page.goto(`${url}/forgot-password`) },
  {
    name: 'forgot-password-sent',
    async go(page, url) {
      await page.goto(`${url}/forgot-password`);
      await page.locator('#email').fill('someone@acme.example');
      await page.locator('#forgot-form button[type=submit]').click();
      await page.locator('#forgot-sent').waitFor();
    },
  },
  { name: 'reset-password', go: (page, url) => page.goto(`${url}/reset-password?token=abc`) },
  {
    name: 'terms',
    async go(page, url) {
      const response = await page.request.post(`${url}/api/auth/login`, {
        data: { email: 'grace@acme.example', password },
        headers: { origin: url },
      });
      if (!response.ok()) throw new Error(`sign-in failed: ${response.status()}`);
      await page.goto(authorizeUrl(url));
      await page.waitForURL((u) => u.pathname === '/terms');
    },
  },
  {
    name: 'consent',
    async go(page, url) {
      await signIn(page, url);
      await page.goto(authorizeUrl(url));
      await page.waitForURL((u) => u.pathname === '/consent');
    },
  },
  {
    name: 'access-denied',
    async go(page, url) {
      await signIn(page, url);
      await page.goto(authorizeUrl(url, 'wiki'));
      await page.waitForURL((u) => u.pathname === '/access-denied');
    },
  },
  {
    name: 'select-account',
    async go(page, url) {
      await signIn(page, url);
      const authorize = new URL(authorizeUrl(url));
      await page.goto(
        `${url}/select-account?${new URLSearchParams({ return_to: authorize.pathname + authorize.search })}`,
      );
    },
  },
  {
    name: 'account',
    async go(page, url) {
      await signIn(page, url, 'grace@acme.example');
      await page.goto(`${url}/account`);
      await page.locator('#profile-form[aria-busy="false"]').waitFor();
    },
  },
  {
    name: 'account-delete',
    async go(page, url) {
      await signIn(page, url, 'grace@acme.example');
      await page.goto(`${url}/account#delete-account`);
      await page.locator('#profile-form[aria-busy="false"]').waitFor();
      await page.locator('#delete-start').click();
      await page.locator('#delete-form button[type=submit]').click();
      await page.locator('#delete-password-error').waitFor();
    },
  },
  {
    name: 'account-managed',
    async go(page, url) {
      await signIn(page, url);
      await page.goto(`${url}/account`);
      await page.locator('#profile-form[aria-busy="false"]').waitFor();
    },
  },
  { name: 'home', go: (page, url) => page.goto(`${url}/`) },
  {
    name: 'home-signed-in',
    async go(page, url) {
      await signIn(page, url);
      await page.goto(`${url}/`);
    },
  },
  {
    name: 'sign-out',
    async go(page, url) {
      await signIn(page, url);
      // A registered return address proves the application: the question names it.
      const query = new URLSearchParams({
        client_id: 'notes',
        post_logout_redirect_uri: 'https://notes.acme.example/',
      });
      await page.goto(`${url}/oauth2/logout?${query}`);
    },
  },
  {
    name: 'signed-out',
    async go(page, url) {
      await signIn(page, url);
      await page.goto(`${url}/oauth2/logout`);
      await page.locator('#sign-out-form button[type=submit]').click();
      await page.locator('.stack .button').waitFor();
    },
  },
  {
    name: 'account-app-key',
    async go(page, url) {
      await signIn(page, url, 'grace@acme.example');
      await page.goto(`${url}/account#authenticator-app`);
      await page.locator('#app-start').click();
      await page.locator('#app-secret:not(:empty)').waitFor();
      await page.waitForFunction(() => document.getElementById('app-qr').naturalWidth > 0);
    },
  },
  {
    name: 'account-revoke',
    async go(page, url) {
      await signIn(page, url, 'grace@acme.example');
      // Each of the eight shots allows the application afresh.
      await page.request.delete(`${url}/api/consents/notes`, { headers: { origin: url } });
      await page.goto(authorizeUrl(url));
      await page.waitForURL((u) => u.pathname === '/consent');
      // Allowed as the page's Allow does, without following the answer to the application, which does not exist here.
      const returnTo = new URL(page.url()).searchParams.get('return_to');
      await page.request.post(`${url}/api/consent`, {
        data: { return_to: returnTo, decision: 'allow' },
        headers: { origin: url },
      });
      await page.goto(`${url}/account#apps`);
      await page.locator('#apps-list li button').click();
      await page.locator('#apps-list .row-actions').waitFor();
    },
  },
  {
    name: 'terms-no-request',
    go: (page, url) => signIn(page, url).then(() => page.goto(`${url}/terms`)),
  },
  { name: 'not-found', go: (page, url) => page.goto(`${url}/no-such-page`) },
  {
    name: 'authorize-error',
    go: (page, url) => page.goto(`${url}/oauth2/authorize?client_id=unknown&response_type=code`),
  },
  // The admin console (docs/ui.md, "Admin console"), signed in as the file's admin.
  {
    name: 'console-overview',
    async go(page, url) {
      await signIn(page, url, 'admin@acme.example');
      await page.goto(`${url}/admin`);
    },
  },
  {
    name: 'console-users',
    async go(page, url) {
      await signIn(page, url, 'admin@acme.example');
      await page.goto(`${url}/admin/users`);
    },
  },
  {
    name: 'console-user',
    async go(page, url) {
      await signIn(page, url, 'admin@acme.example');
      await page.goto(`${url}/admin/users?q=grace`);
      await page.locator('#users-table a').first().click();
      await page.locator('#user-details').waitFor();
    },
  },
  {
    name: 'console-user-config',
    async go(page, url) {
      await signIn(page, url, 'admin@acme.example');
      await page.goto(`${url}/admin/users?q=ada`);
      await page.locator('#users-table a').first().click();
      await page.locator('#declared').waitFor();
    },
  },
  {
    name: 'console-confirm',
    async go(page, url) {
      await signIn(page, url, 'admin@acme.example');
      await page.goto(`${url}/admin/users?q=grace`);
      await page.locator('#users-table a').first().click();
      await page.locator('a[href*="action=delete"]').click();
      await page.locator('#confirm-heading').waitFor();
    },
  },
  {
    name: 'console-forbidden',
    async go(page, url) {
      await signIn(page, url);
      await page.goto(`${url}/admin`);
    },
  },
  { name: 'setup-unavailable', go: (page, url) => page.goto(`${url}/setup?token=not-a-real-token`) },
  // The console's read-only pages, as admin@acme.example.
  ...[
    ['console-groups', '/admin/groups'],
    ['console-group', '/admin/groups/sre'],
    ['console-clients', '/admin/clients'],
    ['console-client', '/admin/clients/wiki'],
    ['console-terms', '/admin/terms'],
    ['console-events', '/admin/events'],
  ].map(([name, target]) => ({
    name,
    async go(page, url) {
      await signIn(page, url, 'admin@acme.example');
      await page.goto(`${url}${target}`);
    },
  })),
];

const viewports = [
  { label: '360', viewport: { width: 360, height: 740 } },
  { label: '1280', viewport: { width: 1280, height: 800 } },
];

const idp = await startServer();
const browser = await chromium.launch({
  headless: true,
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
await mkdir(outDir, { recursive: true });
const problems = [];
try {
  for (const shot of shots.filter((s) => !only || only.includes(s.name))) {
    for (const { label, viewport } of viewports) {
      for (const colorScheme of ['light', 'dark']) {
        for (const locale of ['en', 'de']) {
          const context = await browser.newContext({
            viewport,
            colorScheme,
            locale,
            extraHTTPHeaders: { 'accept-language': locale },
          });
          const page = await context.newPage();
          page.setDefaultTimeout(10_000);
          page.on('pageerror', (error) => problems.push(`${shot.name}: ${error}`));
          try {
            await shot.go(page, idp.url);
          } catch (error) {
            problems.push(`${shot.name} ${label} ${colorScheme} ${locale}: ${String(error).split('\n')[0]}`);
          }
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          if (overflow > 0)
            problems.push(`${shot.name} ${label} ${colorScheme} ${locale}: ${overflow}px horizontal overflow`);
          const file = path.join(outDir, `${shot.name}-${label}-${colorScheme}-${locale}.png`);
          await page.screenshot({ path: file, fullPage: true });
          await context.close();
        }
      }
    }
    console.log(`screenshots/${shot.name}-*.png`);
  }
} finally {
  await browser.close();
  if (keepServing) {
    console.log(`serving at ${idp.url} (Ctrl-C to stop); sign in as ada@acme.example / ${password}`);
    process.once('SIGINT', () => void idp.stop().then(() => process.exit(0)));
  } else {
    await idp.stop();
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exitCode = 1;
}
