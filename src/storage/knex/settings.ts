import type { SettingsRepository } from '../repositories.js';
import { onKnex } from './on-knex.js';

export const knexSettingsRepository = onKnex<SettingsRepository>({
  async get(tx, key) {
    const row = (await tx('settings').where({ key }).first('value')) as { value: string } | undefined;
    return row ? row.value : null;
  },

  async set(tx, key, value, now) {
    await tx('settings').insert({ key, value, updated_at: now }).onConflict('key').merge(['value', 'updated_at']);
  },

  async getOrCreate(tx, key, create, now) {
    // Insert-if-absent first, then read: whoever inserted first wins and both callers read the same value.
    await tx('settings').insert({ key, value: create(), updated_at: now }).onConflict('key').ignore();
    const row = (await tx('settings').where({ key }).first('value')) as { value: string };
    return row.value;
  },

  async delete(tx, key) {
    await tx('settings').where({ key }).delete();
  },
});
