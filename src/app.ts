import type { Server } from '@hapi/hapi';
import type { Logger } from 'pino';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config/types.js';
import { hashPassword, verifyPassword } from './accounts/passwords.js';
import { createSessionService } from './accounts/sessions.js';
import { createLoginRateLimit } from './accounts/login-rate-limit.js';
import { createLoginService } from './accounts/login.js';
import { noRegisteredFactors } from './accounts/login-second-factors.js';
import { createUserViewService } from './admin/user-view-service.js';
import { createAdminUsersService } from './admin/admin-users-service.js';
import { createServer } from './http/create-server.js';
import type { HttpDeps } from './http/http-deps.js';
import { routeTable } from './http/routes.js';
import { createLogger } from './logger.js';
import { deriveKey, resolveServerSecret } from './security/resolve-server-secret.js';
import { connectDatabase, type Database } from './storage/knex/connect.js';
import { migrateUp } from './storage/knex/migrate.js';
import { grantRevokers } from './storage/knex/grant-revokers.js';
import { knexLoginRateLimitRepository } from './storage/knex/login-rate-limits.js';
import { knexSessionRepository } from './storage/knex/sessions.js';
import { knexSettingsRepository } from './storage/knex/settings.js';
import { knexUserRepository } from './storage/knex/users.js';
import { knexClientRepository } from './storage/knex/clients.js';
import { knexConsentRepository } from './storage/knex/consents.js';
import { knexAuthorizationCodeRepository } from './storage/knex/authorization-codes.js';
import { knexSchedulerRepositories } from './storage/knex/scheduler-repositories.js';
import { createAuthorizeDeps } from './oidc/authorize/create-authorize-deps.js';
import { createProviderDeps } from './oidc/create-provider-deps.js';
import { verifyAccessToken } from './oidc/tokens/index.js';
import { knexSigningKeyRepository } from './storage/knex/signing-keys.js';
import { knexTokenRepository } from './storage/knex/tokens.js';
import { knexClientChangeProbe } from './storage/knex/client-change-probe.js';
import { createConsentService, createRememberedAccounts } from './interaction/index.js';
import { createFrontend } from './web/index.js';
import { createScheduler, type Scheduler } from './scheduler/index.js';
import type { Tx } from './storage/repositories.js';

/**
 * The composition root (STYLE.md 11): config → database (connect, migrate)
 * → repositories → services → server → jobs. Nothing else builds services;
 * modules get their dependencies here, as parameters.
 */
export interface App {
  server: Server;
  db: Database;
  deps: HttpDeps;
  scheduler: Scheduler;
  logger: Logger;
  /** Starts listening; resolves with the real URL (port 0 picks a free port). */
  start(): Promise<string>;
  /** Drains in-flight requests (up to `timeoutMs`), then closes the database. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
  /** An already open database (tests); otherwise one is opened from config.database and closed by stop(). */
  db?: Database;
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logging);

  // Database
  const db = options.db ?? connectDatabase(config.database);
  await migrateUp(db);

  // Repositories
  const users = knexUserRepository;

  // Services
  const secret = await resolveServerSecret({ configured: config.security.secret, db, settings: knexSettingsRepository, clock, logger });
  const sessions = createSessionService({ db, sessions: knexSessionRepository, users, security: config.security, clock });
  const factors = noRegisteredFactors;
  const userViews = createUserViewService({ factors, auth: config.auth });
  const rateLimit = createLoginRateLimit({ db, counters: knexLoginRateLimitRepository, limits: config.security.loginRateLimit, clock });
  const login = createLoginService({ db, users, sessions, rateLimit, factors, auth: config.auth, hashPassword, verifyPassword });
  const revokeUser = async (tx: Tx, sub: string) => {
    for (const revoker of grantRevokers) await revoker.revokeUser(tx, sub);
  };
  const admin = createAdminUsersService({
    db,
    transaction: (work) => db.transaction(work),
    users,
    views: userViews,
    revokeUser,
    hashPassword,
    clock,
  });

  const cookiePassword = deriveKey(secret, 'session cookie');
  const authorize = createAuthorizeDeps({
    db,
    clients: knexClientRepository,
    consents: knexConsentRepository,
    codes: knexAuthorizationCodeRepository,
    config,
    clock,
  });
  const provider = await createProviderDeps({
    config,
    secret,
    clock,
    db,
    transaction: (work) => db.transaction(work),
    repositories: {
      signingKeys: knexSigningKeyRepository,
      clients: knexClientRepository,
      clientProbe: knexClientChangeProbe,
      tokens: knexTokenRepository,
      codes: knexAuthorizationCodeRepository,
      users,
    },
    verifyArgon2: verifyPassword,
  });
  const consent = createConsentService({ db, consents: knexConsentRepository, authorize, clock });
  const accounts = createRememberedAccounts({ sessions, cookiePassword });
  const frontend = createFrontend(config.frontend, config.branding);

  // Server
  const deps: HttpDeps = {
    config,
    clock,
    logger,
    pingDatabase: async () => {
      await db.raw('SELECT 1');
    },
    cookiePassword,
    sessions,
    login,
    admin,
    userViews,
    authorize,
    provider,
    verifyAccessToken: async (token) => {
      const claims = await verifyAccessToken(token, provider);
      return { sub: claims.sub, clientId: claims.clientId, scope: claims.scopes, claims: claims.claims };
    },
    consent,
    accounts,
    frontend,
  };
  const server = await createServer(deps, routeTable(config));

  // Jobs
  const scheduler = createScheduler({ db, config, clock, logger, repositories: knexSchedulerRepositories });

  return {
    server,
    db,
    deps,
    scheduler,
    logger,
    async start() {
      await server.start();
      scheduler.start();
      const host = server.info.address?.includes(':') ? `[${server.info.address}]` : server.info.address;
      return `${server.info.protocol}://${host}:${server.info.port}`;
    },
    async stop({ timeoutMs = 10_000 } = {}) {
      await server.stop({ timeout: timeoutMs });
      await scheduler.stop({ graceMs: timeoutMs });
      if (!options.db) await db.destroy();
    },
  };
}
