import path from 'node:path';
import type {
  ConfigFile,
  ClientAccessFile,
  ClientFile,
  ForwardAuthFile,
  GroupFile,
  IdentityProviderFile,
  TermFile,
  UserFile,
} from './file-types.js';
import type {
  ClientConfig,
  Config,
  ForwardAuthConfig,
  GroupConfig,
  IdentityProviderConfig,
  TermConfig,
  UserConfig,
} from './types.js';
import type { ClientAccess } from '../model/groups.js';
import { clientFields } from '../model/client-fields.js';
import { identityProviderFields } from '../model/identity-provider-fields.js';
import { termFields } from '../model/term-fields.js';
import { userFields } from '../model/user-fields.js';
import { groupFields } from '../model/group-fields.js';
import { copyFromFile, type CopiedProperty } from '../model/entity-fields.js';
import { processInstanceId } from './process-instance-id.js';
import { normalizeTrustProxy } from './normalize-trust-proxy.js';

/** proxy mode's upstream when frontend.path is absent: a Vite dev server on its default port. */
export const defaultProxyUpstream = 'http://127.0.0.1:5173';

// Requested upstream scopes when identity_providers[].scopes is absent: what each type needs for an e-mail and a name.
export const defaultProviderScopes: Record<IdentityProviderFile['type'], string[]> = {
  github: ['read:user', 'user:email'],
  google: ['openid', 'email', 'profile'],
  apple: ['name', 'email'],
  generic_oauth: ['openid', 'email', 'profile'],
};

/**
 * Phase 5: the shaped, rule-checked file → the runtime Config (camelCase).
 * Defaults the schema cannot state are decided here: the OpenAPI titles from
 * branding.name, the scheduler instance id, the frontend path from its mode,
 * provider scopes from their type. Relative paths are resolved against the
 * config file's directory (`baseDir`), so that `idp -c deploy/idp.yaml` finds
 * `./idp.sqlite` next to the file whatever the working directory.
 */
export function normalizeConfig(file: ConfigFile, options: { file: string | null; baseDir: string }): Config {
  const resolve = (p: string) => (p === ':memory:' ? p : path.resolve(options.baseDir, p));
  const f = file;
  return {
    file: options.file,
    server: {
      baseUrl: (f.server.base_url ?? defaultBaseUrl(f.server.host, f.server.port)).replace(/\/+$/, ''),
      baseUrlDerived: f.server.base_url === undefined,
      host: f.server.host,
      port: f.server.port,
      trustProxy: normalizeTrustProxy(f.server.trust_proxy),
    },
    tokens: {
      accessTokenTtlSeconds: f.tokens.access_token_ttl_seconds,
      idTokenTtlSeconds: f.tokens.id_token_ttl_seconds,
      refreshTokenTtlSeconds: f.tokens.refresh_token_ttl_seconds,
      authorizationCodeTtlSeconds: f.tokens.authorization_code_ttl_seconds,
      signingAlg: f.tokens.signing_alg,
    },
    i18n: { defaultLocale: f.i18n.default_locale, locales: f.i18n.locales },
    branding: { name: f.branding.name, logoUrl: f.branding.logo_url, primaryColor: f.branding.primary_color },
    registration: {
      enabled: f.registration.enabled,
      allowedEmailPatterns: f.registration.allowed_email_patterns,
      emailVerificationRequired: f.registration.email_verification_required,
      signupNotice: f.registration.signup_notice,
    },
    accountDeletion: { enabled: f.account_deletion.enabled, gracePeriodDays: f.account_deletion.grace_period_days },
    logging: { level: f.logging.level, format: f.logging.format ?? null },
    security: {
      secret: f.security.secret ?? null,
      sessionTtlSeconds: f.security.session_ttl_seconds,
      sessionIdleTtlSeconds: f.security.session_idle_ttl_seconds,
      loginRateLimit: {
        maxAttempts: f.security.login_rate_limit.max_attempts,
        addressMaxAttempts: f.security.login_rate_limit.address_max_attempts,
        windowSeconds: f.security.login_rate_limit.window_seconds,
      },
    },
    database: {
      client: f.database.client,
      filename: resolve(f.database.filename),
      url: f.database.url ?? null,
      pool: { ...f.database.pool },
    },
    auth: {
      passwordMinLength: f.auth.password_min_length,
      secondFactor: f.auth.second_factor,
      totpIssuer: f.auth.totp_issuer,
      passkeysEnabled: f.auth.passkeys_enabled,
    },
    email: { enabled: f.email.enabled, from: f.email.from, smtp: { ...f.email.smtp } },
    identityProviders: f.identity_providers.map(normalizeIdentityProvider),
    clients: f.clients.map(normalizeClient),
    users: f.users.map(normalizeUser),
    groups: normalizeGroups(f.groups, f.users),
    forwardAuth: normalizeForwardAuth(f.forward_auth),
    terms: f.terms.map(normalizeTerm),
    metrics: { ...f.metrics },
    scheduler: {
      enabled: f.scheduler.enabled,
      mode: f.scheduler.mode,
      cleanupCron: f.scheduler.cleanup_cron,
      pollIntervalMs: f.scheduler.poll_interval_ms,
      lockTtlMs: f.scheduler.lock_ttl_ms,
      backgroundRetryDelayMs: f.scheduler.background_retry_delay_ms,
      backgroundMaxAttempts: f.scheduler.background_max_attempts,
      backgroundRetentionMs: f.scheduler.background_retention_ms,
      instanceId: f.scheduler.instance_id === '' ? processInstanceId() : f.scheduler.instance_id,
    },
    cleanup: {
      enabled: f.cleanup.enabled,
      batchSize: f.cleanup.batch_size,
      eventsRetentionDays: f.cleanup.events_retention_days,
    },
    // docs/configuration.md, openapi: "<service name> API" and "<service name> API Reference".
    openapi: {
      enabled: f.openapi.enabled,
      title: f.openapi.title ?? `${f.branding.name} API`,
      description: f.openapi.description,
      uiTitle: f.openapi.ui_title ?? `${f.branding.name} API Reference`,
    },
    frontend: {
      enabled: f.frontend.enabled,
      mode: f.frontend.mode,
      path: frontendPath(f.frontend, resolve),
      htmlVariables: f.frontend.html_variables,
    },
  };
}

/**
 * server.base_url when the file has none: where a browser on this machine
 * reaches the server. A wildcard or loopback listen address is `localhost`
 * (a secure context for browsers, which passkeys need); any other host is
 * itself.
 */
export function defaultBaseUrl(host: string, port: number): string {
  const local = host === '0.0.0.0' || host === '::' || host === 'localhost' || host === '::1' || /^127\./.test(host);
  const name = local ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** static: '' means the built-in UI, anything else a directory; proxy: the upstream URL. */
function frontendPath(frontend: ConfigFile['frontend'], resolve: (p: string) => string): string {
  if (frontend.mode === 'proxy') return frontend.path ?? defaultProxyUpstream;
  return frontend.path === undefined || frontend.path === '' ? '' : resolve(frontend.path);
}

function normalizeIdentityProvider(p: IdentityProviderFile): IdentityProviderConfig {
  return {
    ...(copyFromFile(identityProviderFields, p) as Pick<
      IdentityProviderConfig,
      CopiedProperty<typeof identityProviderFields>
    >),
    id: p.id,
    clientSecret: p.client_secret,
    scopes: p.scopes ?? defaultProviderScopes[p.type],
  };
}

function normalizeClient(c: ClientFile): ClientConfig {
  return {
    ...(copyFromFile(clientFields, c) as Pick<ClientConfig, CopiedProperty<typeof clientFields>>),
    clientId: c.client_id,
    name: c.name ?? c.client_id,
    clientSecret: c.client_secret ?? null,
    clientSecretHash: c.client_secret_hash ?? null,
    tokenEndpointAuthMethod: c.token_endpoint_auth_method ?? 'client_secret_basic',
    tokenEndpointAuthMethodPinned: c.token_endpoint_auth_method !== undefined,
    backchannelLogoutUri: c.backchannel_logout_uri ?? null,
    access: normalizeAccess(c.access),
  };
}

function normalizeAccess(access: ClientAccessFile | undefined): ClientAccess | null {
  if (!access) return null;
  return {
    groups: access.groups ?? null,
    roles: access.roles ?? null,
    secondFactor: access.second_factor === 'required' ? 'required' : null,
  };
}

/** Host names are case-insensitive: kept lower-case, so that matching a request compares strings. */
function normalizeForwardAuth(f: ForwardAuthFile): ForwardAuthConfig {
  return {
    cookieDomain: f.cookie_domain?.toLowerCase().replace(/^\./, '') ?? null,
    apps: f.apps.map((app) => ({
      host: app.host.toLowerCase(),
      pathPrefix: app.path_prefix === '/' ? '/' : app.path_prefix.replace(/\/+$/, ''),
      access: normalizeAccess(app.access),
      headers: { ...app.headers },
    })),
  };
}

function normalizeUser(u: UserFile): UserConfig {
  return { ...(copyFromFile(userFields, u) as Pick<UserConfig, CopiedProperty<typeof userFields>>), sub: u.sub };
}

function normalizeTerm(t: TermFile): TermConfig {
  return { ...(copyFromFile(termFields, t) as Pick<TermConfig, CopiedProperty<typeof termFields>>), id: t.id };
}

/**
 * Each group with its config members: those its `members` name (by sub, or
 * by e-mail compared case-insensitively) and the users listing it in
 * `users[].groups`, as subs, unique and sorted.
 */
function normalizeGroups(groups: GroupFile[], users: UserFile[]): GroupConfig[] {
  const subs = new Set(users.map((u) => u.sub));
  const subByEmail = new Map(users.map((u) => [u.email.toLowerCase(), u.sub]));
  const resolve = (ref: string) => (subs.has(ref) ? ref : subByEmail.get(ref.toLowerCase()));
  return groups.map((g) => {
    const members = new Set<string>();
    for (const ref of g.members) {
      const sub = resolve(ref);
      if (sub !== undefined) members.add(sub);
    }
    for (const u of users) if (u.groups.includes(g.id)) members.add(u.sub);
    return {
      ...(copyFromFile(groupFields, g) as Pick<GroupConfig, CopiedProperty<typeof groupFields>>),
      id: g.id,
      name: g.name ?? g.id,
      upstream: g.upstream,
      members: [...members].sort(),
    };
  });
}
