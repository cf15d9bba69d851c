import type { CacheGenerationRepository } from '../repositories.js';
import { onKnex } from './on-knex.js';

const sql = 'SELECT generation FROM cache_generation WHERE id = 1';

/** One primary-key read, as raw text: it runs once per event-loop turn of every cached request, so knex builds nothing. */
export const knexCacheGenerationRepository = onKnex<CacheGenerationRepository>({
  async read(tx) {
    const result = (await tx.raw(sql)) as
      { rows?: { generation: number | string }[] } | { generation: number | string }[];
    const rows = Array.isArray(result) ? result : (result.rows ?? []);
    return Number(rows[0]?.generation ?? 0);
  },
});
