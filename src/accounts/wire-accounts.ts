import type { AreaBase } from '../area-wiring.js';
import type { EventLog } from '../events/index.js';
import type { MailOutbox, MailTemplate } from '../mail/index.js';
import { sealingKey } from '../security/seal.js';
import type { Tx } from '../storage/repositories.js';
import { createOwnAccountDeletion } from './delete-own-account.js';
import { createPasswordChanger } from './change-password.js';
import { createPasswordConfirmation } from './confirm-password.js';
import { createEmailVerification } from './email-verification.js';
import { createLinkTokens } from './link-tokens.js';
import { createLoginRateLimit } from './login-rate-limit.js';
import { createUserFactorReader } from './login-second-factors.js';
import { createMailRequest } from './mail-request.js';
import { createMailSendJob } from './mail-send-job.js';
import { createPasskeyService } from './passkey-service.js';
import { createPasswordLogin } from './password-login.js';
import { createPasswordReset } from './password-reset.js';
import { hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { createRegistration } from './registration.js';
import { createRequestRateLimit } from './request-rate-limit.js';
import { createSecondFactorReset } from './second-factor-reset.js';
import type { LogoutOutbox } from './logout-outbox.js';
import { createSessionEnd } from './session-end.js';
import { createSessionService } from './sessions.js';
import { createSignOut } from './sign-out.js';
import { createTotpService } from './totp-service.js';
import { createProfileUpdater } from './update-profile.js';
import { createUserConsents } from './user-consents.js';
import { createUserTerms } from './user-terms.js';

export type AccountsWiring = ReturnType<typeof wireAccounts>;

/**
 * The accounts area: sessions, passwords, second factors, the self-service
 * account and its mail. `services` are what the routes use (HttpDeps
 * accounts); the rest is what the other areas build on. Mails are
 * `mail.send` jobs queued through `outbox` in the transaction of the change;
 * `mailSend` sends them (null when email.enabled is false). Ending a
 * session queues its Logout Tokens through `logoutOutbox` the same way.
 */
export function wireAccounts(
  base: AreaBase,
  needs: { events: EventLog; outbox: MailOutbox; logoutOutbox: LogoutOutbox },
) {
  const { config, storage, clock, secret } = base;
  const { db, repositories } = storage;
  const { users, totp: totpCredentials, recoveryCodes, passkeys: passkeyCredentials } = repositories;
  const { events, outbox } = needs;
  const transaction = <T>(work: (tx: Tx) => Promise<T>) => storage.transaction(work);

  const sessions = createSessionService({
    db,
    transaction,
    sessions: repositories.sessions,
    users,
    security: config.security,
    clock,
  });
  const factors = createUserFactorReader({ db, totp: totpCredentials, recoveryCodes, passkeys: passkeyCredentials });
  const rateLimit = createLoginRateLimit({
    db,
    counters: repositories.loginRateLimits,
    limits: config.security.loginRateLimit,
    clock,
  });
  const passwords = createPasswordLogin({
    db,
    users,
    rateLimit,
    hashPassword,
    verifyPassword,
    needsRehash,
    events,
  });
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
  const sessionEnd = createSessionEnd({
    sessions: repositories.sessions,
    tokens: repositories.tokens,
    codes: repositories.authorizationCodes,
    deviceCodes: repositories.deviceCodes,
    outbox: needs.logoutOutbox,
    clock,
  });
  // Every grant goes, offline ones too: the user is gone or their credential changed (password reset).
  const revokeUser = async (tx: Tx, sub: string) => {
    await sessionEnd.allOf(tx, [sub]);
    for (const revoker of repositories.grantRevokers) await revoker.revokeUser(tx, sub);
  };
  const resetSecondFactors = createSecondFactorReset({
    totp: totpCredentials,
    recoveryCodes,
    passkeys: passkeyCredentials,
    sessionEnd,
  });
  const confirmation = createPasswordConfirmation({ rateLimit, verifyPassword });

  const linkTokens = createLinkTokens({ tokens: repositories.linkTokens, clock });
  const requestRateLimit = (scope: string) =>
    createRequestRateLimit({
      db,
      counters: repositories.loginRateLimits,
      limits: config.security.loginRateLimit,
      clock,
      scope,
    });
  const mailRequest = (template: MailTemplate, scope: string) =>
    createMailRequest({ db, outbox, email: config.email, template, rateLimit: requestRateLimit(scope) });
  const registration = createRegistration({
    db,
    transaction,
    users,
    termAcceptances: repositories.termAcceptances,
    outbox,
    events,
    config,
    hashPassword,
    rateLimit: requestRateLimit('register'),
    clock,
  });

  // What the first proof of an address removes (./drop-unproven-access.ts).
  const unprovenAccess = {
    connections: repositories.connections,
    passkeys: repositories.passkeys,
    totp: repositories.totp,
    recoveryCodes: repositories.recoveryCodes,
  };

  const services = {
    sessions,
    signOut: createSignOut({ storage, sessionEnd, events }),
    totp,
    passkeys,
    registration,
    emailVerification: createEmailVerification({
      transaction,
      users,
      ...unprovenAccess,
      linkTokens,
      resend: mailRequest('email_verification', 'email_resend'),
      events,
      clock,
    }),
    passwordReset: createPasswordReset({
      db,
      transaction,
      users,
      ...unprovenAccess,
      linkTokens,
      forgot: mailRequest('password_reset', 'password_forgot'),
      auth: config.auth,
      hashPassword,
      revokeUser,
      events,
      clock,
    }),
    profiles: createProfileUpdater({ db, users, i18n: config.i18n, clock }),
    passwordChange: createPasswordChanger({
      transaction,
      users,
      sessionEnd,
      tokens: repositories.tokens,
      codes: repositories.authorizationCodes,
      linkTokens,
      confirmation,
      hashPassword,
      auth: config.auth,
      events,
      clock,
    }),
    accountDeletion: createOwnAccountDeletion({
      transaction,
      users,
      revokeUser,
      confirmation,
      accountDeletion: config.accountDeletion,
      events,
      clock,
    }),
    userConsents: createUserConsents({ storage, events, clock }),
    userTerms: createUserTerms({ storage, events, clock }),
  };
  return {
    services,
    passwords,
    factors,
    rateLimit,
    revokeUser,
    sessionEnd,
    resetSecondFactors,
    mailSend: createMailSendJob({ db, users, linkTokens, config }),
  };
}
