import type { IdentityProviderRepository } from '../repositories.js';
import type { IdentityProviderRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface IdentityProviderRow {
  id: string;
  type: IdentityProviderRecord['type'];
  enabled: boolean | number;
  display_name: string | null;
  icon_url: string | null;
  client_id: string;
  client_secret_fingerprint: string;
  authorization_url: string | null;
  token_url: string | null;
  userinfo_url: string | null;
  email_url: string | null;
  scopes: string;
  email_conflict_strategy: IdentityProviderRecord['emailConflictStrategy'];
  created_at: DbInteger;
  updated_at: DbInteger;
}

function fromRow(row: IdentityProviderRow): IdentityProviderRecord {
  return {
    id: row.id,
    type: row.type,
    enabled: Boolean(row.enabled),
    displayName: row.display_name,
    iconUrl: row.icon_url,
    clientId: row.client_id,
    clientSecretFingerprint: row.client_secret_fingerprint,
    authorizationUrl: row.authorization_url,
    tokenUrl: row.token_url,
    userinfoUrl: row.userinfo_url,
    emailUrl: row.email_url,
    scopes: JSON.parse(row.scopes) as string[],
    emailConflictStrategy: row.email_conflict_strategy,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toRow(provider: IdentityProviderRecord): IdentityProviderRow {
  return {
    id: provider.id,
    type: provider.type,
    enabled: provider.enabled,
    display_name: provider.displayName,
    icon_url: provider.iconUrl,
    client_id: provider.clientId,
    client_secret_fingerprint: provider.clientSecretFingerprint,
    authorization_url: provider.authorizationUrl,
    token_url: provider.tokenUrl,
    userinfo_url: provider.userinfoUrl,
    email_url: provider.emailUrl,
    scopes: JSON.stringify(provider.scopes),
    email_conflict_strategy: provider.emailConflictStrategy,
    created_at: provider.createdAt,
    updated_at: provider.updatedAt,
  };
}

export const knexIdentityProviderRepository = onKnex<IdentityProviderRepository>({
  async findById(tx, id) {
    const row = (await tx<IdentityProviderRow>('identity_providers').where({ id }).first()) as
      IdentityProviderRow | undefined;
    return row ? fromRow(row) : null;
  },

  async listAll(tx) {
    const rows = await tx<IdentityProviderRow>('identity_providers').orderBy('id');
    return rows.map(fromRow);
  },

  async save(tx, provider) {
    const row = toRow(provider);
    const { id: _id, created_at: _createdAt, ...replaced } = row;
    await tx('identity_providers').insert(row).onConflict('id').merge(Object.keys(replaced));
  },

  async delete(tx, id) {
    await tx('identity_providers').where({ id }).delete();
  },
});
