import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config/types.js';
import type {
  EmailVerification,
  OwnAccountDeletion,
  PasswordChanger,
  PasswordReset,
  ProfileUpdater,
  Registration,
} from '../accounts/index.js';
import type { SessionService } from '../accounts/sessions.js';
import type { PasskeyService } from '../accounts/passkey-service.js';
import type { TotpService } from '../accounts/totp-service.js';
import type { UserConsents } from '../accounts/user-consents.js';
import type { UserTerms } from '../accounts/user-terms.js';
import type { SignOut } from '../accounts/sign-out.js';
import type { AdminUsersService } from '../admin/admin-users-service.js';
import type { AdminUserDetails } from '../admin/admin-user-detail.js';
import type { FirstAdminSetup } from '../admin/first-admin-setup.js';
import type { AdminOverviewService } from '../admin/admin-overview.js';
import type { AccountUnlock } from '../admin/unlock-account.js';
import type { UserViewService } from '../admin/user-view-service.js';
import type { AdminEventsService } from '../admin/admin-events-service.js';
import type { AdminGroupsService } from '../admin/admin-groups-service.js';
import type { AdminAccessCheck } from '../admin/admin-access-check.js';
import type { UserGroupReader } from '../access/user-groups.js';
import type { AuthorizeDeps } from '../oidc/authorize/index.js';
import type { DeviceVerificationDeps } from '../oidc/device/index.js';
import type { ProtocolDeps } from '../oidc/protocol-deps.js';
import type {
  AccessDenial,
  ConsentService,
  EnrolmentService,
  RememberedAccounts,
  SignInService,
} from '../interaction/index.js';
import type { Frontend } from '../web/index.js';
import type { ConnectionService, FederationService } from '../federation/index.js';
import type { ForwardAuth } from '../forward-auth/forward-auth-service.js';
import type { OperationsServices } from '../operations/index.js';

/**
 * What route handlers may use: services, never knex, grouped by the area
 * that builds them. src/app.ts assembles it from the areas' wiring
 * functions (src/<area>/wire-<area>.ts, docs/architecture.md): a new
 * service goes into its area's wiring and its group here.
 */
export interface HttpDeps {
  config: Config;
  clock: Clock;
  logger: Logger;
  /** Resolves when the database answers; rejects otherwise (GET /api/health). */
  pingDatabase(): Promise<void>;
  /** The iron password of the session cookie (derived from security.secret). */
  cookiePassword: string;
  accounts: AccountsArea;
  interaction: InteractionArea;
  protocol: ProtocolArea;
  federation: FederationArea;
  admin: AdminArea;
  web: WebArea;
  forwardAuth: ForwardAuthArea;
  /** src/operations/wire-operations.ts: readiness, the config drift, the request metrics. */
  operations: OperationsServices;
}

/** src/accounts/wire-accounts.ts: the user's own account. */
export interface AccountsArea {
  sessions: SessionService;
  /** POST /api/auth/logout and RP-initiated logout: ends the session and records sign_out (src/accounts/sign-out.ts). */
  signOut: SignOut;
  /** The user's authenticator app and recovery codes (createTotpService). */
  totp: TotpService;
  /** The user's passkeys and the passkey sign-in's options (createPasskeyService). */
  passkeys: PasskeyService;
  /** POST /api/auth/register (createRegistration). */
  registration: Registration;
  /** POST /api/auth/email/verify and /resend (createEmailVerification). */
  emailVerification: EmailVerification;
  /** POST /api/auth/password/forgot and /reset (createPasswordReset). */
  passwordReset: PasswordReset;
  /** PATCH /api/user (src/accounts/update-profile.ts). */
  profiles: ProfileUpdater;
  /** POST /api/user/password (src/accounts/change-password.ts). */
  passwordChange: PasswordChanger;
  /** DELETE /api/user (src/accounts/delete-own-account.ts). */
  accountDeletion: OwnAccountDeletion;
  /** GET /api/consents, DELETE /api/consents/{client_id} (createUserConsents). */
  userConsents: UserConsents;
  /** GET /api/terms, POST /api/terms/accept, GET /api/admin/terms (createUserTerms). */
  userTerms: UserTerms;
}

/** src/interaction/wire-interaction.ts: the sign-in steps' callers. */
export interface InteractionArea {
  /** POST /api/auth/login and the second factors that complete it (createSignInService). */
  signIn: SignInService;
  /** Registering a factor, from a session or the enrolment at sign-in (createEnrolmentService). */
  enrolment: EnrolmentService;
  /** GET /api/auth/accounts, POST /api/auth/accounts/select (createRememberedAccounts). */
  rememberedAccounts: RememberedAccounts;
}

/** src/oidc/wire-protocol.ts: the OpenID Connect endpoints. */
export interface ProtocolArea {
  /** Token, userinfo, revocation, introspection, logout, discovery, JWKS (src/oidc/create-protocol-deps.ts). */
  engine: ProtocolDeps;
  /** /oauth2/authorize (src/oidc/authorize, createAuthorizeDeps). */
  authorize: AuthorizeDeps;
  /** GET and POST /api/consent: the consent step's page, which reads back the authorization request (createConsentService). */
  consent: ConsentService;
  /** GET /access-denied: the access step's page, which reads back the authorization request (createAccessDenial). */
  accessDenial: AccessDenial;
  /** GET /oauth2/device_verification: a device's request through the sign-in steps (src/oidc/device). */
  device: DeviceVerificationDeps;
}

/** src/federation/wire-federation.ts: upstream identity providers. */
export interface FederationArea {
  /** Upstream sign-in and linking: /api/auth/providers/* (createFederationService). */
  upstream: FederationService;
  /** GET and DELETE /api/connections (createConnectionService). */
  connections: ConnectionService;
}

/** src/admin/wire-admin.ts: the admin API. */
export interface AdminArea {
  users: AdminUsersService;
  /** The console's Overview (createAdminOverview). */
  overview: AdminOverviewService;
  /** The first admin's one-time setup link (createFirstAdminSetup): `idp serve` and /setup. */
  firstAdmin: FirstAdminSetup;
  /** The console's page of one user (createAdminUserDetails). */
  userDetails: AdminUserDetails;
  /** POST /api/admin/users/{sub}/unlock (createAccountUnlock). */
  unlock: AccountUnlock;
  userViews: UserViewService;
  /** GET /api/user/groups: the signed-in user's groups with their sources (createUserGroupReader). */
  userGroups: UserGroupReader;
  /** GET /api/admin/events (createAdminEventsService). */
  events: AdminEventsService;
  /** /api/admin/groups*, GET /api/admin/users/{sub}/groups (createAdminGroupsService). */
  groups: AdminGroupsService;
  /** GET /api/admin/clients/{client_id}/access (createAdminAccessCheck). */
  access: AdminAccessCheck;
}

/** src/web/wire-web.ts: pages on every other path. */
export interface WebArea {
  /** createFrontend(config.frontend, config.branding). */
  frontend: Frontend;
  /** The pages' scripts bundled by the build, by name (src/web/ui-bundles.ts); empty when run from src/. */
  uiBundles: ReadonlyMap<string, string>;
}

/** src/forward-auth/wire-forward-auth.ts: apps behind a reverse proxy. */
export interface ForwardAuthArea {
  /** GET /api/forward-auth and GET /api/auth-request (createForwardAuth). */
  forwardAuth: ForwardAuth;
}
