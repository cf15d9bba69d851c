/**
 * The config FILE format (snake_case), as the shape phase hands it on:
 * schemas/config.schema.json has been checked and its defaults applied. So a
 * key with a schema `default` is always present and is not optional here; a
 * key is optional (`?`) exactly when the schema neither requires it nor gives
 * it a default. test/config/schema-types.test.ts fails when these types and
 * the schema disagree (names, optionality, types, enum literals).
 *
 * The runtime shape (camelCase) is ./types.ts; ./normalize-config.ts maps
 * one onto the other.
 */

export interface ConfigFile {
  server: ServerFile;
  tokens: TokensFile;
  i18n: I18nFile;
  branding: BrandingFile;
  registration: RegistrationFile;
  account_deletion: AccountDeletionFile;
  logging: LoggingFile;
  security: SecurityFile;
  database: DatabaseFile;
  auth: AuthFile;
  email: EmailFile;
  identity_providers: IdentityProviderFile[];
  clients: ClientFile[];
  users: UserFile[];
  groups: GroupFile[];
  forward_auth: ForwardAuthFile;
  terms: TermFile[];
  metrics: MetricsFile;
  scheduler: SchedulerFile;
  cleanup: CleanupFile;
  openapi: OpenApiFile;
  frontend: FrontendFile;
}

export interface ServerFile {
  base_url?: string;
  host: string;
  port: number;
  /** false, a number of hops, or proxy addresses and CIDR ranges; true is read as 1 hop. */
  trust_proxy: boolean | number | string[];
}

export interface TokensFile {
  access_token_ttl_seconds: number;
  id_token_ttl_seconds: number;
  refresh_token_ttl_seconds: number;
  authorization_code_ttl_seconds: number;
  signing_alg: 'RS256' | 'ES256' | 'EdDSA';
}

export interface I18nFile {
  default_locale: string;
  locales: string[];
}

export interface BrandingFile {
  name: string;
  logo_url: string | null;
  primary_color: string | null;
}

export interface RegistrationFile {
  enabled: boolean;
  allowed_email_patterns: string[];
  email_verification_required: boolean;
  signup_notice: Record<string, string>;
}

export interface AccountDeletionFile {
  enabled: boolean;
  grace_period_days: number;
}

export interface LoggingFile {
  level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  format?: 'json' | 'pretty';
}

export interface SecurityFile {
  secret?: string;
  session_ttl_seconds: number;
  session_idle_ttl_seconds: number;
  login_rate_limit: {
    max_attempts: number;
    address_max_attempts: number;
    window_seconds: number;
  };
}

export interface DatabaseFile {
  client: 'sqlite' | 'postgres';
  filename: string;
  url?: string;
  pool: {
    min: number;
    max: number;
  };
}

export interface AuthFile {
  password_min_length: number;
  second_factor: 'optional' | 'required_for_admins' | 'required';
  totp_issuer: string | null;
  passkeys_enabled: boolean;
}

export interface EmailFile {
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

export interface IdentityProviderFile {
  id: string;
  type: 'github' | 'google' | 'apple' | 'generic_oauth';
  enabled: boolean;
  display_name?: string;
  icon_url?: string;
  client_id: string;
  client_secret: string;
  authorization_url?: string;
  token_url?: string;
  userinfo_url?: string | null;
  email_url?: string;
  scopes?: string[];
  email_conflict_strategy: 'auto_link' | 'require_link';
}

export interface ClientFile {
  client_id: string;
  name?: string;
  client_secret?: string;
  client_secret_hash?: string;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  grant_types: (
    'authorization_code' | 'refresh_token' | 'client_credentials' | 'urn:ietf:params:oauth:grant-type:device_code'
  )[];
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'none';
  scopes: string[];
  require_pkce: boolean;
  skip_consent: boolean;
  id_token_signed_response_alg: 'RS256' | 'ES256' | 'EdDSA';
  backchannel_logout_uri?: string;
  backchannel_logout_session_required: boolean;
  require_pushed_authorization_requests: boolean;
  access?: ClientAccessFile;
}

export interface ClientAccessFile {
  groups?: string[];
  roles?: ('user' | 'admin')[];
  second_factor: 'required' | 'optional';
}

export interface UserFile {
  sub: string;
  email: string;
  role: 'user' | 'admin';
  email_verified: boolean;
  password_hash?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  locale?: string;
  groups: string[];
}

export interface GroupFile {
  id: string;
  name?: string;
  description?: string;
  members: string[];
  upstream: UpstreamGroupRuleFile[];
}

export type UpstreamGroupRuleFile =
  { provider: string; claim: string; value: string } | { provider: string; team: string };

export interface ForwardAuthFile {
  cookie_domain?: string;
  apps: ForwardAuthAppFile[];
}

export interface ForwardAuthAppFile {
  host: string;
  path_prefix: string;
  access?: ClientAccessFile;
  headers: ForwardAuthHeadersFile;
}

export interface ForwardAuthHeadersFile {
  user: string;
  email: string;
  name: string;
  groups: string;
}

export interface TermFile {
  id: string;
  required: boolean;
  consent_mode: 'explicit' | 'implicit';
  version: string;
  content: Record<string, TermContentFile>;
}

export interface TermContentFile {
  title: string;
  type: 'link' | 'text';
  content: string;
}

export interface MetricsFile {
  enabled: boolean;
  host: string;
  port: number;
}

export interface SchedulerFile {
  enabled: boolean;
  mode: 'croner' | 'database';
  cleanup_cron: string;
  poll_interval_ms: number;
  lock_ttl_ms: number;
  background_retry_delay_ms: number;
  background_max_attempts: number;
  background_retention_ms: number;
  instance_id: string;
}

export interface CleanupFile {
  enabled: boolean;
  batch_size: number;
  events_retention_days: number;
}

export interface OpenApiFile {
  enabled: boolean;
  title?: string;
  description: string;
  ui_title?: string;
}

export interface FrontendFile {
  enabled: boolean;
  mode: 'proxy' | 'static';
  path?: string;
  html_variables: Record<string, string>;
}
