/**
 * The Storage on SQLite and PostgreSQL through knex: one module per
 * repository (rows ↔ src/model records), connect.ts (pool, WAL and pragmas
 * on SQLite), migrate.ts (migrations/ is the schema), on-knex.ts (how the
 * opaque `Tx` is a knex handle here) and open-knex-storage.ts, which bundles
 * them. The only code in src/ that imports knex, pg or sqlite3.
 */
export { openKnexStorage } from './open-knex-storage.js';
