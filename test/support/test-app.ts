import { pino } from 'pino';
import { createApp, type App } from '../../src/app.js';
import { systemClock, type Clock } from '../../src/clock.js';
import { createLinkTokens } from '../../src/accounts/link-tokens.js';
import type { Config } from '../../src/config/types.js';
import { knexUserRepository } from '../../src/storage/knex/users.js';
import type { UserRecord } from '../../src/model/index.js';
import { testConfig, testPasswordHash } from './config-fixture.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';

/** The password behind testPasswordHash. */
export const testPassword = 'correct horse battery staple';

export interface TestApp {
  app: App;
  config: Config;
  database: TestDatabase;
  destroy(): Promise<void>;
}

/**
 * A fresh app on a fresh private database of the given kind, built by the
 * real composition root (not started: use app.server.inject, or app.start()
 * for a real port). The scheduler is off unless the overrides turn it on.
 */
export async function createTestApp(
  kind: DatabaseKind,
  overrides: Partial<Config> = {},
  options: { clock?: Clock } = {},
): Promise<TestApp> {
  const database = await createTestDatabase(kind);
  const base = testConfig();
  const config = testConfig({
    database: database.config,
    server: { ...base.server, host: '127.0.0.1', port: 0 },
    scheduler: { ...base.scheduler, enabled: false },
    ...overrides,
  });
  const app = await createApp(config, {
    storage: database.storage,
    clock: options.clock,
    logger: pino({ level: 'silent' }),
  });
  return {
    app,
    config,
    database,
    async destroy() {
      await app.stop({ timeoutMs: 1000 });
      await database.destroy();
    },
  };
}

/** Inserts a user straight into storage (password: testPassword unless passwordHash says otherwise). */
export async function seedUser(
  testApp: Pick<TestApp, 'database'>,
  overrides: Partial<UserRecord> & { sub: string },
): Promise<UserRecord> {
  const now = Date.now();
  const user: UserRecord = {
    managedBy: 'database',
    email: `${overrides.sub}@example.com`,
    role: 'user',
    emailVerified: true,
    emailVerificationRequired: false,
    passwordHash: testPasswordHash,
    secondFactorRequired: false,
    name: null,
    givenName: null,
    familyName: null,
    locale: null,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
  await knexUserRepository.insert(testApp.database.tx, user);
  return user;
}

/** A password reset link's token for the user, as the reset mail would carry it. */
export function issueResetToken(testApp: Pick<TestApp, 'database'>, user: UserRecord): Promise<string> {
  const linkTokens = createLinkTokens({ tokens: testApp.database.storage.repositories.linkTokens, clock: systemClock });
  return linkTokens.issue(testApp.database.storage.db, user, 'password_reset');
}

/** Signs in through POST /api/auth/login and returns the Cookie header value for later requests. */
export async function signIn(testApp: TestApp, email: string, password = testPassword): Promise<string> {
  const response = await testApp.app.server.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
  });
  if (response.statusCode !== 200)
    throw new Error(`sign-in of ${email} failed: ${response.statusCode} ${response.payload}`);
  return sessionCookieOf(response.headers['set-cookie']);
}

export function sessionCookieOf(setCookie: string | string[] | undefined): string {
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const session = cookies.find((c) => c.startsWith('session='));
  if (!session) throw new Error('no session cookie was set');
  return session.split(';')[0];
}

/** server.inject with an optional Cookie header and a parsed JSON body (`json()`). */
export async function inject(
  testApp: TestApp,
  method: string,
  url: string,
  cookie?: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await testApp.app.server.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
    payload: payload as object | string | undefined,
  });
  return Object.assign(response, { json: () => JSON.parse(response.payload) as Record<string, any> });
}
