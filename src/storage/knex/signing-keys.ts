import type { SigningKeyRepository } from '../repositories.js';
import type { SigningKeyRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { defineTable, integer, json, nullable, text, timestamp, type Row } from './define-table.js';

const keys = defineTable<SigningKeyRecord>('signing_keys', {
  kid: ['kid', text()],
  generation: ['generation', integer],
  alg: ['alg', text()],
  publicJwk: ['public_jwk', json()],
  privateKey: ['private_key', text()],
  createdAt: ['created_at', timestamp],
  retireAt: ['retire_at', nullable(timestamp)],
});

export const knexSigningKeyRepository = onKnex<SigningKeyRepository>({
  async listLive(tx, now) {
    const rows = (await tx('signing_keys')
      .where((q) => q.whereNull('retire_at').orWhere('retire_at', '>', now))
      .orderBy('generation', 'desc')) as Row[];
    return rows.map(keys.fromRow);
  },

  async listAll(tx) {
    const rows = (await tx('signing_keys').orderBy('generation', 'desc')) as Row[];
    return rows.map(keys.fromRow);
  },

  async insertIfGenerationFree(tx, key) {
    const inserted = await tx('signing_keys')
      .insert(keys.toRow(key))
      .onConflict('generation')
      .ignore()
      .returning('kid');
    return (inserted as unknown[]).length === 1;
  },

  async retireOlderThan(tx, alg, generation, retireAt) {
    await tx('signing_keys')
      .where({ alg })
      .where('generation', '<', generation)
      .whereNull('retire_at')
      .update({ retire_at: retireAt });
  },
});
