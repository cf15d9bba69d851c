import type { SigningKeyRepository } from '../repositories.js';
import type { SigningKeyRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface SigningKeyRow {
  kid: string;
  generation: DbInteger;
  alg: SigningKeyRecord['alg'];
  public_jwk: string;
  private_key: string;
  created_at: DbInteger;
  retire_at: DbInteger | null;
}

function fromRow(row: SigningKeyRow): SigningKeyRecord {
  return {
    kid: row.kid,
    generation: Number(row.generation),
    alg: row.alg,
    publicJwk: JSON.parse(row.public_jwk) as Record<string, unknown>,
    privateKey: row.private_key,
    createdAt: Number(row.created_at),
    retireAt: row.retire_at === null ? null : Number(row.retire_at),
  };
}

export const knexSigningKeyRepository = onKnex<SigningKeyRepository>({
  async listLive(tx, now) {
    const rows = await tx<SigningKeyRow>('signing_keys')
      .where((q) => q.whereNull('retire_at').orWhere('retire_at', '>', now))
      .orderBy('generation', 'desc');
    return rows.map(fromRow);
  },

  async listAll(tx) {
    const rows = await tx<SigningKeyRow>('signing_keys').orderBy('generation', 'desc');
    return rows.map(fromRow);
  },

  async insertIfGenerationFree(tx, key) {
    const inserted = await tx('signing_keys')
      .insert({
        kid: key.kid,
        generation: key.generation,
        alg: key.alg,
        public_jwk: JSON.stringify(key.publicJwk),
        private_key: key.privateKey,
        created_at: key.createdAt,
        retire_at: key.retireAt,
      })
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
