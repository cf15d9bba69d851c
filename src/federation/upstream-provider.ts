import type { IdentityProviderConfig } from '../config/types.js';
import type { EmailConflictStrategy, IdentityProviderRecord, IdentityProviderType } from '../model/index.js';
import type { IdentityProviderRepository, Tx } from '../storage/repositories.js';

/** An upstream provider as a sign-in uses it: endpoints resolved, the secret from the config. */
export interface UpstreamProvider {
  id: string;
  type: IdentityProviderType;
  displayName: string;
  iconUrl: string | null;
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string | null;
  emailUrl: string | null;
  scopes: string[];
  emailConflictStrategy: EmailConflictStrategy;
  /** OpenID Connect: the identity comes from a verified ID token (google, apple, generic_oauth asking for `openid`). */
  openId: boolean;
}

interface BuiltIn {
  displayName: string;
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string | null;
  emailUrl: string | null;
}

/**
 * The public endpoints of the built-in types (docs/configuration.md, identity_providers); the config's
 * authorization_url, token_url, userinfo_url and email_url override them
 * (GitHub Enterprise Server, tests). The issuer and key set of the OpenID
 * types come from their discovery documents (./openid-metadata.ts).
 */
export const builtInProviders: Record<Exclude<IdentityProviderType, 'generic_oauth'>, BuiltIn> = {
  // https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
  github: {
    displayName: 'GitHub',
    authorizationUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    userinfoUrl: 'https://api.github.com/user',
    emailUrl: 'https://api.github.com/user/emails',
  },
  // https://accounts.google.com/.well-known/openid-configuration
  google: {
    displayName: 'Google',
    authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
    emailUrl: null,
  },
  // https://appleid.apple.com/.well-known/openid-configuration: no userinfo endpoint, the ID token carries the e-mail.
  apple: {
    displayName: 'Apple',
    authorizationUrl: 'https://appleid.apple.com/auth/authorize',
    tokenUrl: 'https://appleid.apple.com/auth/token',
    userinfoUrl: null,
    emailUrl: null,
  },
};

export function isOpenIdProvider(type: IdentityProviderType, scopes: readonly string[]): boolean {
  return type === 'google' || type === 'apple' || (type === 'generic_oauth' && scopes.includes('openid'));
}

/**
 * The provider a sign-in uses: the applied row (what `idp apply` stored,
 * shared by every instance) with the secret of this process's config. A
 * provider removed by apply, disabled, or missing from this process's
 * config is unusable at once.
 */
export function toUpstreamProvider(
  record: IdentityProviderRecord,
  configured: IdentityProviderConfig | undefined,
): UpstreamProvider | null {
  if (!record.enabled || !configured?.enabled) return null;
  const builtIn = record.type === 'generic_oauth' ? null : builtInProviders[record.type];
  const authorizationUrl = record.authorizationUrl ?? builtIn?.authorizationUrl;
  const tokenUrl = record.tokenUrl ?? builtIn?.tokenUrl;
  // The config rules make generic_oauth name both; a row written around them is unusable, not a crash.
  if (!authorizationUrl || !tokenUrl) return null;
  return {
    id: record.id,
    type: record.type,
    displayName: record.displayName ?? builtIn?.displayName ?? record.id,
    iconUrl: record.iconUrl,
    clientId: record.clientId,
    clientSecret: configured.clientSecret,
    authorizationUrl,
    tokenUrl,
    userinfoUrl: record.userinfoUrl ?? builtIn?.userinfoUrl ?? null,
    emailUrl: record.emailUrl ?? builtIn?.emailUrl ?? null,
    scopes: record.scopes,
    emailConflictStrategy: record.emailConflictStrategy,
    openId: isOpenIdProvider(record.type, record.scopes),
  };
}

/** The usable providers, read from storage on each call so that apply on any instance takes effect at once. */
export interface UpstreamDirectory {
  list(): Promise<UpstreamProvider[]>;
  find(id: string): Promise<UpstreamProvider | null>;
}

export function createUpstreamDirectory(deps: {
  db: Tx;
  providers: IdentityProviderRepository;
  /** The running config's list: a reload replaces its contents in place (src/config/swap-config.ts), so it is read on each call. */
  configured: readonly IdentityProviderConfig[];
}): UpstreamDirectory {
  const resolve = (record: IdentityProviderRecord) =>
    toUpstreamProvider(
      record,
      deps.configured.find((provider) => provider.id === record.id),
    );
  return {
    async list() {
      const records = await deps.providers.listAll(deps.db);
      return records.map(resolve).filter((provider): provider is UpstreamProvider => provider !== null);
    },
    async find(id) {
      const record = await deps.providers.findById(deps.db, id);
      return record ? resolve(record) : null;
    },
  };
}
