import type { IdentityProviderRepository } from '../repositories.js';
import type { IdentityProviderRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { tableOf, type Row } from './define-table.js';
import { identityProviderFields } from '../../model/identity-provider-fields.js';

const providers = tableOf<IdentityProviderRecord, typeof identityProviderFields>(
  'identity_providers',
  identityProviderFields,
);

/** A save replaces every column but the key and the creation time. */
const replacedOnSave = providers.columns.filter((column) => column !== 'id' && column !== 'created_at');

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
    await tx('identity_providers').insert(providers.toRow(provider)).onConflict('id').merge(replacedOnSave);
  },

  async delete(tx, id) {
    await tx('identity_providers').where({ id }).delete();
  },
});
