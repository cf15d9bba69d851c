import type { Logger } from 'pino';
import { systemClock, type Clock } from './clock.js';
import type { Config, DatabaseConfig } from './config/types.js';
import { hashPassword, verifyPassword } from './accounts/passwords.js';
import { createSessionService } from './accounts/sessions.js';
import { createLoginRateLimit } from './accounts/login-rate-limit.js';
import { createPasswordLogin } from './accounts/password-login.js';
import { createUserFactorReader } from './accounts/login-second-factors.js';
import { createTotpService } from './accounts/totp-service.js';
import { createPasskeyService } from './accounts/passkey-service.js';
import { createSecondFactorReset } from './accounts/second-factor-reset.js';
import {
  createAccountMail,
  createEmailVerification,
  createLinkTokens,
  createMailRequest,
  createOwnAccountDeletion,
  createPasswordChanger,
  createPasswordConfirmation,
  createPasswordReset,
  createProfileUpdater,
  createRegistration,
  createRequestRateLimit,
} from './accounts/index.js';
import { createSmtpMailer, type Mailer, type MailOutbox, type MailTemplate } from './mail/index.js';
import { createUserViewService } from './admin/user-view-service.js';
import { createAdminUsersService } from './admin/admin-users-service.js';
import { createAdminEventsService } from './admin/admin-events-service.js';
import { createEventLog } from './events/index.js';
import { createUserConsents } from './accounts/user-consents.js';
import { createUserTerms } from './accounts/user-terms.js';
import { createSignOut } from './accounts/sign-out.js';
import { createAccountUnlock } from './admin/unlock-account.js';
import { createServer, type HttpServer } from './http/create-server.js';
import type { HttpDeps } from './http/http-deps.js';
import { routeTable } from './http/routes.js';
import { createLogger } from './logger.js';
import { createSigningPool, type SigningPool } from './keys/index.js';
import { deriveKey, resolveServerSecret } from './security/resolve-server-secret.js';
import { sealingKey } from './security/seal.js';
import { openKnexStorage } from './storage/knex/index.js';
import type { Storage, Tx } from './storage/repositories.js';
import { createAuthorizeDeps } from './oidc/authorize/create-authorize-deps.js';
import { authorizationRequestReader } from './oidc/authorize/read-authorization-request.js';
import { createProviderDeps } from './oidc/create-provider-deps.js';
import { verifyAccessToken } from './oidc/tokens/index.js';
import {
  createConsentService,
  createEnrolmentService,
  createRememberedAccounts,
  createSignInDeps,
  createSignInService,
} from './interaction/index.js';
import { createFrontend } from './web/index.js';
import { createScheduler, type Scheduler } from './scheduler/index.js';
import { createFederation } from './federation/index.js';

/**
 * The composition root (STYLE.md 11): config → storage → repositories →
 * services → server → jobs. Nothing else builds services or picks a storage
 * implementation: `serve` gets an App, the other commands a Foundation,
 * and modules get their dependencies here, as parameters.
 */

/** The storage implementation for a database config: the one place that names it. */
export function openStorage(config: DatabaseConfig): Storage {
  return openKnexStorage(config);
}

/** What every command that touches the database shares. */
export interface Foundation {
  config: Config;
  storage: Storage;
  clock: Clock;
}

export interface App extends Foundation {
  server: HttpServer;
  deps: HttpDeps;
  scheduler: Scheduler;
  logger: Logger;
  /** Signs every JWT off the main thread; closed by stop(). */
  signingPool: SigningPool;
  /** Starts listening; resolves with the real URL (port 0 picks a free port). */
  start(): Promise<string>;
  /** Drains in-flight requests (up to `timeoutMs`), stops the jobs and the signing pool, then closes the storage it opened. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
  /** An already open storage (tests, `serve`), left open by stop(); otherwise one is opened from config.database and closed by stop(). */
  storage?: Storage;
  /** How long each call to an upstream identity provider may take (default 10 s; tests shorten it). */
  upstreamTimeoutMs?: number;
}

/** The foundation of a command: an open storage (not yet migrated) and the system clock. */
export function createFoundation(config: Config, options: { storage?: Storage; clock?: Clock } = {}): Foundation {
  return { config, storage: options.storage ?? openStorage(config.database), clock: options.clock ?? systemClock };
}

/** A scheduler over the foundation's storage (serve, `idp jobs run`). */
export function createFoundationScheduler(foundation: Foundation, logger: Logger): Scheduler {
  const { storage, config, clock } = foundation;
  return createScheduler({ db: storage.db, config, clock, logger, repositories: storage.repositories });
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const foundation = createFoundation(config, options);
  const { storage, clock } = foundation;
  const { db, repositories } = storage;
  const logger = options.logger ?? createLogger(config.logging);
  const transaction = <T>(work: (tx: Tx) => Promise<T>) => storage.transaction(work);

  await storage.migrate();
  const signingPool = createSigningPool();
  // Built before the services: the mail they queue is one of its jobs.
  const scheduler = createFoundationScheduler(foundation, logger);

  // Services
  const secret = await resolveServerSecret({
    configured: config.security.secret,
    db,
    settings: repositories.settings,
    clock,
    logger,
  });
  const users = repositories.users;
  const sessions = createSessionService({
    db,
    sessions: repositories.sessions,
    users,
    security: config.security,
    clock,
  });
  const events = createEventLog({ storage, logger, clock });
  const { totp: totpCredentials, recoveryCodes, passkeys: passkeyCredentials } = repositories;
  const factors = createUserFactorReader({ db, totp: totpCredentials, recoveryCodes, passkeys: passkeyCredentials });
  const userViews = createUserViewService({ factors, auth: config.auth });
  const rateLimit = createLoginRateLimit({
    db,
    counters: repositories.loginRateLimits,
    limits: config.security.loginRateLimit,
    clock,
  });
  const passwords = createPasswordLogin({ db, users, rateLimit, hashPassword, verifyPassword, events });
  const signOut = createSignOut({ storage, events });
  const totp = createTotpService({
    db,
    transaction,
    totp: totpCredentials,
    recoveryCodes,
    passkeys: passkeyCredentials,
    rateLimit,
    secretKey: sealingKey(secret, 'totp secrets'),
    recoveryCodeKey: sealingKey(secret, 'recovery codes'),
    auth: config.auth,
    branding: config.branding,
    events,
    clock,
  });
  const passkeys = createPasskeyService({
    db,
    transaction,
    users,
    passkeys: passkeyCredentials,
    totp: totpCredentials,
    challenges: repositories.webauthnChallenges,
    baseUrl: config.server.baseUrl,
    branding: config.branding,
    auth: config.auth,
    events,
    clock,
  });
  const userTerms = createUserTerms({ storage, events, clock });
  const signInDeps = createSignInDeps({
    db,
    consents: repositories.consents,
    factors,
    terms: userTerms,
    auth: config.auth,
    clock,
  });
  const signIn = createSignInService({ passwords, sessions, totp, passkeys, stepDeps: signInDeps, events, db, clock });
  const enrolment = createEnrolmentService({ totp, passkeys, signIn, factors, auth: config.auth });
  const revokeUser = async (tx: Tx, sub: string) => {
    for (const revoker of repositories.grantRevokers) await revoker.revokeUser(tx, sub);
  };
  const resetSecondFactors = createSecondFactorReset({
    totp: totpCredentials,
    recoveryCodes,
    passkeys: passkeyCredentials,
    sessions: repositories.sessions,
  });
  const admin = createAdminUsersService({
    db,
    transaction,
    users,
    views: userViews,
    revokeUser,
    resetSecondFactors,
    hashPassword,
    events,
    clock,
  });
  const adminEvents = createAdminEventsService(storage);
  const userConsents = createUserConsents({ storage, events, clock });
  const profiles = createProfileUpdater({ db, users, i18n: config.i18n, clock });
  const confirmation = createPasswordConfirmation({ rateLimit, verifyPassword });
  const passwordChange = createPasswordChanger({
    transaction,
    users,
    sessions: repositories.sessions,
    tokens: repositories.tokens,
    codes: repositories.authorizationCodes,
    confirmation,
    hashPassword,
    auth: config.auth,
    events,
    clock,
  });
  const accountDeletion = createOwnAccountDeletion({
    transaction,
    users,
    revokeUser,
    confirmation,
    accountDeletion: config.accountDeletion,
    events,
    clock,
  });

  // Self-service accounts: their mails are `mail.send` jobs queued in the transaction of the change (src/mail).
  const outbox: MailOutbox = {
    async queue(tx, job) {
      await scheduler.enqueue('mail.send', job, { tx });
    },
  };
  const linkTokens = createLinkTokens({ tokens: repositories.linkTokens, clock });
  const mailRequest = (template: MailTemplate, scope: string) =>
    createMailRequest({
      db,
      outbox,
      email: config.email,
      template,
      rateLimit: createRequestRateLimit({
        db,
        counters: repositories.loginRateLimits,
        limits: config.security.loginRateLimit,
        clock,
        scope,
      }),
    });
  const registration = createRegistration({
    db,
    transaction,
    users,
    termAcceptances: repositories.termAcceptances,
    outbox,
    events,
    config,
    hashPassword,
    clock,
  });
  const emailVerification = createEmailVerification({
    transaction,
    users,
    connections: repositories.connections,
    linkTokens,
    resend: mailRequest('email_verification', 'email_resend'),
    events,
    clock,
  });
  const passwordReset = createPasswordReset({
    db,
    transaction,
    users,
    connections: repositories.connections,
    linkTokens,
    forgot: mailRequest('password_reset', 'password_forgot'),
    auth: config.auth,
    hashPassword,
    revokeUser,
    events,
    clock,
  });
  const unlockAccount = createAccountUnlock({ db, users, rateLimit });

  const cookiePassword = deriveKey(secret, 'session cookie');
  const authorize = createAuthorizeDeps({
    db,
    clients: repositories.clients,
    codes: repositories.authorizationCodes,
    signIn: signInDeps,
    config,
    clock,
  });
  const provider = await createProviderDeps({
    config,
    secret,
    clock,
    db,
    transaction,
    signingPool,
    repositories: {
      signingKeys: repositories.signingKeys,
      clients: repositories.clients,
      clientProbe: repositories.clientProbe,
      tokens: repositories.tokens,
      codes: repositories.authorizationCodes,
      users,
      cacheGeneration: repositories.cacheGeneration,
    },
    databaseConnections: storage.engine === 'sqlite' ? 1 : config.database.pool.max,
    verifyArgon2: verifyPassword,
  });
  const consent = createConsentService({ storage, events, readRequest: authorizationRequestReader(authorize), clock });
  const accounts = createRememberedAccounts({ sessions, cookiePassword });
  const frontend = createFrontend(config.frontend, config.branding);
  const { federation, connections } = createFederation({
    config,
    storage,
    signIn,
    createUser: (tx, input) => registration.registerFromUpstream(tx, input),
    factors,
    events,
    keys: { cookiePassword: deriveKey(secret, 'upstream pending link'), stateKey: deriveKey(secret, 'upstream state') },
    clock,
    logger,
    timeoutMs: options.upstreamTimeoutMs,
  });

  // Server
  const deps: HttpDeps = {
    config,
    clock,
    logger,
    pingDatabase: () => storage.ping(),
    cookiePassword,
    sessions,
    signOut,
    signIn,
    totp,
    passkeys,
    enrolment,
    registration,
    emailVerification,
    passwordReset,
    admin,
    unlockAccount,
    userViews,
    adminEvents,
    profiles,
    passwordChange,
    accountDeletion,
    authorize,
    provider,
    verifyAccessToken: async (token) => {
      const claims = await verifyAccessToken(token, provider);
      return { sub: claims.sub, clientId: claims.clientId, scope: claims.scopes, claims: claims.claims };
    },
    consent,
    userConsents,
    userTerms,
    federation,
    connections,
    accounts,
    frontend,
  };
  const server = await createServer(deps, routeTable(config));

  // Jobs: an instance with email.enabled false leaves mail jobs to one that sends (docs/scheduler.md).
  let mailer: Mailer | null = null;
  if (config.email.enabled) {
    mailer = createSmtpMailer(config.email);
    const accountMail = createAccountMail({
      db,
      users,
      linkTokens,
      mailer,
      baseUrl: config.server.baseUrl,
      branding: config.branding,
    });
    scheduler.registerHandler('mail.send', async (job, { logger: jobLogger }) => {
      const outcome = await accountMail.deliver(job);
      jobLogger.info(
        { event: `mail.${outcome}`, template: job.template, locale: job.locale },
        `${job.template} mail ${outcome}`,
      );
    });
  }

  let stopKeyRefresh = () => {};
  return {
    ...foundation,
    server,
    deps,
    scheduler,
    logger,
    signingPool,
    async start() {
      await server.start();
      stopKeyRefresh = provider.keys.refreshPeriodically();
      scheduler.start();
      const host = server.info.address?.includes(':') ? `[${server.info.address}]` : server.info.address;
      return `${server.info.protocol}://${host}:${server.info.port}`;
    },
    async stop({ timeoutMs = 10_000 } = {}) {
      stopKeyRefresh();
      await server.stop({ timeout: timeoutMs });
      await scheduler.stop({ graceMs: timeoutMs });
      mailer?.close();
      await signingPool.close();
      if (!options.storage) await storage.close();
    },
  };
}
