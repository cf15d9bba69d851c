import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config/types.js';
import type { SessionService } from '../accounts/sessions.js';
import type { PasskeyService } from '../accounts/passkey-service.js';
import type { TotpService } from '../accounts/totp-service.js';
import type { EmailVerification, PasswordReset, Registration } from '../accounts/index.js';
import type { UserConsents } from '../accounts/user-consents.js';
import type { UserTerms } from '../accounts/user-terms.js';
import type { SignOut } from '../accounts/sign-out.js';
import type { OwnAccountDeletion, PasswordChanger, ProfileUpdater } from '../accounts/index.js';
import type { AdminUsersService } from '../admin/admin-users-service.js';
import type { AccountUnlock } from '../admin/unlock-account.js';
import type { UserViewService } from '../admin/user-view-service.js';
import type { AdminEventsService } from '../admin/admin-events-service.js';
import type { BearerCredentials } from './auth/bearer-auth.js';
import type { AuthorizeDeps } from '../oidc/authorize/index.js';
import type { ProviderDeps } from '../oidc/provider-deps.js';
import type { ConsentService, EnrolmentService, RememberedAccounts, SignInService } from '../interaction/index.js';
import type { Frontend } from '../web/index.js';
import type { ConnectionService, FederationService } from '../federation/index.js';

/**
 * What route handlers may use: services, never knex. Built once by
 * src/app.ts (the composition root). Engineers adding routes add their
 * service here and in app.ts.
 */
export interface HttpDeps {
  config: Config;
  clock: Clock;
  logger: Logger;
  /** Resolves when the database answers; rejects otherwise (GET /api/health). */
  pingDatabase(): Promise<void>;
  /** The iron password of the session cookie (derived from security.secret). */
  cookiePassword: string;
  sessions: SessionService;
  /** POST /api/auth/logout and RP-initiated logout: ends the session and records sign_out (src/accounts/sign-out.ts). */
  signOut: SignOut;
  /** POST /api/auth/login and the second factors that complete it (src/interaction, createSignInService). */
  signIn: SignInService;
  /** The user's authenticator app and recovery codes (src/accounts, createTotpService). */
  totp: TotpService;
  /** The user's passkeys and the passkey sign-in's options (src/accounts, createPasskeyService). */
  passkeys: PasskeyService;
  /** Registering a factor, from a session or the enrolment at sign-in (src/interaction, createEnrolmentService). */
  enrolment: EnrolmentService;
  /** POST /api/auth/register (src/accounts, createRegistration). */
  registration: Registration;
  /** POST /api/auth/email/verify and /resend (src/accounts, createEmailVerification). */
  emailVerification: EmailVerification;
  /** POST /api/auth/password/forgot and /reset (src/accounts, createPasswordReset). */
  passwordReset: PasswordReset;
  admin: AdminUsersService;
  /** POST /api/admin/users/{sub}/unlock (src/admin, createAccountUnlock). */
  unlockAccount: AccountUnlock;
  userViews: UserViewService;
  /** GET /api/admin/events (src/admin, createAdminEventsService). */
  adminEvents: AdminEventsService;
  /** PATCH /api/user (src/accounts/update-profile.ts). */
  profiles: ProfileUpdater;
  /** POST /api/user/password (src/accounts/change-password.ts). */
  passwordChange: PasswordChanger;
  /** DELETE /api/user (src/accounts/delete-own-account.ts). */
  accountDeletion: OwnAccountDeletion;
  /**
   * Verifies a bearerAuth access token (RFC 9068 JWT); supplied by the OIDC
   * token engine. Without it, routes with auth 'bearer' cannot be registered.
   */
  verifyAccessToken?: (token: string) => Promise<BearerCredentials>;
  /** /oauth2/authorize (src/oidc/authorize, createAuthorizeDeps). */
  authorize: AuthorizeDeps;
  /** Token, userinfo, revocation, introspection, logout, discovery, JWKS (src/oidc/create-provider-deps.ts). */
  provider: ProviderDeps;
  /** GET and POST /api/consent (src/interaction, createConsentService). */
  consent: ConsentService;
  /** GET /api/consents, DELETE /api/consents/{client_id} (src/accounts, createUserConsents). */
  userConsents: UserConsents;
  /** GET /api/terms, POST /api/terms/accept, GET /api/admin/terms (src/accounts, createUserTerms). */
  userTerms: UserTerms;
  /** Upstream sign-in and linking: /api/auth/providers/* (src/federation, createFederation). */
  federation: FederationService;
  /** GET and DELETE /api/connections (src/federation, createFederation). */
  connections: ConnectionService;
  /** GET /api/auth/accounts, POST /api/auth/accounts/select (createRememberedAccounts). */
  accounts: RememberedAccounts;
  /** Pages on every other path (src/web, createFrontend(config.frontend, config.branding)). */
  frontend: Frontend;
}
