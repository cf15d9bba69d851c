import type { IdentityProviderRepository } from '../repositories.js';
import type { IdentityProviderRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { boolean, defineTable, list, nullable, text, timestamp, type Row } from './define-table.js';

const providers = defineTable<IdentityProviderRecord>('identity_providers', {
  id: ['id', text()],
  type: ['type', text()],
  enabled: ['enabled', boolean],
  displayName: ['display_name', nullable(text())],
  iconUrl: ['icon_url', nullable(text())],
  clientId: ['client_id', text()],
  clientSecretFingerprint: ['client_secret_fingerprint', text()],
  authorizationUrl: ['authorization_url', nullable(text())],
  tokenUrl: ['token_url', nullable(text())],
  userinfoUrl: ['userinfo_url', nullable(text())],
  emailUrl: ['email_url', nullable(text())],
  scopes: ['scopes', list()],
  emailConflictStrategy: ['email_conflict_strategy', text()],
  createdAt: ['created_at', timestamp],
  updatedAt: ['updated_at', timestamp],
});

export const knexIdentityProviderRepository = onKnex<IdentityProviderRepository>({
  async findById(tx, id) {
    const row = (await tx('identity_providers').where({ id }).first()) as Row | undefined;
    return row ? providers.fromRow(row) : null;
  },

  async listAll(tx) {
    const rows = (await tx('identity_providers').orderBy('id')) as Row[];
    return rows.map(providers.fromRow);
  },

  async save(tx, provider) {
    const { id: _id, createdAt: _createdAt, ...replaced } = provider;
    await tx('identity_providers')
      .insert(providers.toRow(provider))
      .onConflict('id')
      .merge(Object.keys(providers.toColumns(replaced)));
  },

  async delete(tx, id) {
    await tx('identity_providers').where({ id }).delete();
  },
});
