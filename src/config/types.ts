/**
 * The runtime configuration: what the rest of the program reads, after the
 * config file has been loaded, shape-checked, rule-checked and normalized
 * (see ./index.ts). camelCase inside; the file format (snake_case) is
 * described by schemas/config.schema.json and mirrored by ./file-types.ts.
 */

import type { BlockList } from 'node:net';
import type { ClientRecord } from '../model/clients.js';
import type { ClientAccess, GroupRecord } from '../model/groups.js';
import type { groupFields } from '../model/group-fields.js';
import type { IdentityProviderRecord } from '../model/identity-providers.js';
import type { TermRecord } from '../model/terms.js';
import type { UserRecord } from '../model/users.js';
import type { identityProviderFields } from '../model/identity-provider-fields.js';
import type { termFields } from '../model/term-fields.js';
import type { userFields } from '../model/user-fields.js';
import type { clientFields } from '../model/client-fields.js';
import type { CopiedProperty } from '../model/entity-fields.js';
import type { SigningAlgorithm } from '../model/index.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface ServerConfig {
  baseUrl: string;
  /** server.base_url was absent: baseUrl is defaultBaseUrl(host, port) and follows `serve --host/--port`. */
  baseUrlDerived: boolean;
  host: string;
  port: number;
  trustProxy: TrustProxy;
}

/**
 * Who may tell the client address through X-Forwarded-For (server.trust_proxy,
 * docs/configuration.md): nobody (the socket peer is the client), the
 * nearest `hops` peers whoever they are, or the peers in `trusted`.
 */
export type TrustProxy = false | { hops: number } | { trusted: BlockList };

export interface TokensConfig {
  accessTokenTtlSeconds: number;
  idTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  authorizationCodeTtlSeconds: number;
  signingAlg: SigningAlgorithm;
}

export interface I18nConfig {
  defaultLocale: string;
  locales: string[];
}

export interface BrandingConfig {
  name: string;
  logoUrl: string | null;
  primaryColor: string | null;
}

export interface RegistrationConfig {
  enabled: boolean;
  allowedEmailPatterns: string[];
  emailVerificationRequired: boolean;
  signupNotice: Record<string, string>;
}

export interface AccountDeletionConfig {
  enabled: boolean;
  gracePeriodDays: number;
}

export interface LoggingConfig {
  level: LogLevel;
  /** null: pretty when the log stream is a terminal, json otherwise (decided by src/logger.ts). */
  format: 'json' | 'pretty' | null;
}

export interface LoginRateLimitConfig {
  /** Failed attempts allowed per account inside the window. */
  maxAttempts: number;
  /** Failed attempts allowed per client address inside the window (higher: an address may be an office). */
  addressMaxAttempts: number;
  windowSeconds: number;
}

export interface SecurityConfig {
  /** >= 32 characters; null means "generate once and keep in the database". */
  secret: string | null;
  sessionTtlSeconds: number;
  sessionIdleTtlSeconds: number;
  loginRateLimit: LoginRateLimitConfig;
}

export interface DatabaseConfig {
  client: 'sqlite' | 'postgres';
  filename: string;
  url: string | null;
  pool: { min: number; max: number };
}

export interface AuthConfig {
  passwordMinLength: number;
  /** Who must use a second factor. */
  secondFactor: 'optional' | 'required_for_admins' | 'required';
  totpIssuer: string | null;
  passkeysEnabled: boolean;
}

export interface EmailConfig {
  enabled: boolean;
  from: string;
  smtp: {
    host: string;
    port: number;
    secure: boolean;
    user: string | null;
    password: string | null;
  };
}

/** An upstream provider as the file declares it, the scopes defaulted by type and the secret as written. */
export type IdentityProviderConfig = Pick<
  IdentityProviderRecord,
  'id' | 'scopes' | CopiedProperty<typeof identityProviderFields>
> & {
  clientSecret: string;
};

/**
 * A client as the file declares it: the fields src/model/client-fields.ts
 * copies, and the secret as written (hashed into the record by apply).
 */
export type ClientConfig = Pick<
  ClientRecord,
  | 'clientId'
  | 'name'
  | 'tokenEndpointAuthMethod'
  | 'tokenEndpointAuthMethodPinned'
  | 'backchannelLogoutUri'
  | CopiedProperty<typeof clientFields>
> & {
  /** Plaintext secret from the file (usually `${ENV}`); never printed. */
  clientSecret: string | null;
  /** Pre-hashed secret (argon2id PHC string) as an alternative to clientSecret. */
  clientSecretHash: string | null;
  /** `access`, with absent lists and `second_factor: optional` as null; null when the file has none. */
  access: ClientAccess | null;
};

/**
 * A user as the file declares it (src/model/user-fields.ts): the password
 * hash is an argon2id PHC string or null (no password sign-in); an
 * undeclared profile field (OIDC Core §5.1) is null.
 */
export type UserConfig = Pick<UserRecord, 'sub' | CopiedProperty<typeof userFields>>;

/**
 * A group as the file declares it (src/model/group-fields.ts), with its
 * config members resolved: the subs of the users named in `members` (by sub
 * or e-mail) and of those listing the group in `users[].groups`, unique and
 * sorted. A reference to no config user is left out here (validate reports
 * it).
 */
export type GroupConfig = Pick<GroupRecord, 'id' | 'name' | 'upstream' | CopiedProperty<typeof groupFields>> & {
  members: string[];
};

/** forward_auth (docs/forward-auth.md): apps behind a reverse proxy that asks idp about each request. */
export interface ForwardAuthConfig {
  /** The session cookie's Domain attribute, lower-case; null: idp's own host only. */
  cookieDomain: string | null;
  apps: ForwardAuthAppConfig[];
}

export interface ForwardAuthAppConfig {
  /** Lower-case: `grafana.example.com`, or `*.example.com` for one label below example.com. */
  host: string;
  /** `/` or a prefix without its trailing `/`. */
  pathPrefix: string;
  /** As clients[].access; null: every signed-in user. */
  access: ClientAccess | null;
  /** The names of the identity headers of the 200 answer. */
  headers: { user: string; email: string; name: string; groups: string };
}

export interface TermContent {
  title: string;
  type: 'link' | 'text';
  content: string;
}

export type TermConfig = Pick<TermRecord, 'id' | CopiedProperty<typeof termFields>>;

/** The Prometheus listener (docs/operations.md, "Metrics"): read at start, a reload waits for a restart. */
export interface MetricsConfig {
  enabled: boolean;
  host: string;
  port: number;
}

export interface SchedulerConfig {
  enabled: boolean;
  mode: 'croner' | 'database';
  cleanupCron: string;
  pollIntervalMs: number;
  lockTtlMs: number;
  backgroundRetryDelayMs: number;
  backgroundMaxAttempts: number;
  backgroundRetentionMs: number;
  /** Empty in the file means "generate a unique per-process id"; normalized to that id. */
  instanceId: string;
}

export interface CleanupConfig {
  enabled: boolean;
  /** Rows deleted per statement, so that a large cleanup never holds a long lock. */
  batchSize: number;
  /** Audit events older than this are deleted by the cleanup job. */
  eventsRetentionDays: number;
}

export interface OpenApiConfig {
  enabled: boolean;
  title: string;
  description: string;
  uiTitle: string;
}

export interface FrontendConfig {
  enabled: boolean;
  mode: 'proxy' | 'static';
  /** static: a directory (default: the built-in UI); proxy: the upstream URL. */
  path: string;
  htmlVariables: Record<string, string>;
}

export interface Config {
  /** Absolute path of the file the config came from, or null for built-in defaults. */
  file: string | null;
  server: ServerConfig;
  tokens: TokensConfig;
  i18n: I18nConfig;
  branding: BrandingConfig;
  registration: RegistrationConfig;
  accountDeletion: AccountDeletionConfig;
  logging: LoggingConfig;
  security: SecurityConfig;
  database: DatabaseConfig;
  auth: AuthConfig;
  email: EmailConfig;
  identityProviders: IdentityProviderConfig[];
  clients: ClientConfig[];
  users: UserConfig[];
  groups: GroupConfig[];
  forwardAuth: ForwardAuthConfig;
  terms: TermConfig[];
  metrics: MetricsConfig;
  scheduler: SchedulerConfig;
  cleanup: CleanupConfig;
  openapi: OpenApiConfig;
  frontend: FrontendConfig;
}
