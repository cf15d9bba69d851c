import type { ClientChangeProbe } from '../repositories.js';
import { onKnex } from './on-knex.js';

/** One indexed aggregate over the clients table: count and latest updated_at. */
export const knexClientChangeProbe = onKnex<ClientChangeProbe>({
  async fingerprint(tx) {
    const row = (await tx('clients').count({ n: '*' }).max({ latest: 'updated_at' }).first()) as {
      n: number | string;
      latest: number | string | null;
    };
    return `${row.n}:${row.latest ?? 0}`;
  },
});
