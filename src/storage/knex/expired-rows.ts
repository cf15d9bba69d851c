import type { ExpiredRowsRepository } from '../repositories.js';
import { isPostgres } from './connect.js';
import { onKnex } from './on-knex.js';

/**
 * Batched deletes for the cleanup jobs. Rows are addressed by the engine's
 * physical row id (PostgreSQL `ctid`, SQLite `rowid`), so a batch works on
 * any table whatever its primary key.
 */
export const knexExpiredRowsRepository = onKnex<ExpiredRowsRepository>({
  async deleteBatch(tx, { table, column, before, limit }) {
    const rowId = isPostgres(tx) ? 'ctid' : 'rowid';
    const batch = tx(table).select(rowId).where(column, '<', before).limit(limit);
    return await tx(table).whereIn(rowId, batch).del();
  },
});
