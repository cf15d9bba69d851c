import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import type { Knex } from 'knex';
import type { MigrationStatus } from '../repositories.js';

/** migrations/ at the package root: the only source of the database schema. */
export const migrationsDirectory = fileURLToPath(new URL('../../../migrations/', import.meta.url));

interface MigrationModule {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * Loads migrations with import() ourselves: knex's file loader does not
 * handle ESM `.js` files in a `"type": "module"` package on every Node version.
 */
const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    const files = await readdir(migrationsDirectory);
    return files.filter((f) => /^\d+_[\w-]+\.js$/.test(f)).sort();
  },
  getMigrationName(name) {
    return name;
  },
  async getMigration(name) {
    return (await import(pathToFileURL(path.join(migrationsDirectory, name)).href)) as MigrationModule;
  },
};

/** What knex's migrator needs to find our migrations (also for a test that steps back one migration). */
export const migrationOptions = { migrationSource, tableName: 'knex_migrations' } as const;

export async function migrateUp(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(migrationOptions)) as [number, string[]];
  return applied;
}

export async function migrationStatus(db: Knex): Promise<MigrationStatus> {
  const [applied, pending] = (await db.migrate.list(migrationOptions)) as [{ name: string }[], string[]];
  return { applied: applied.map((m) => m.name), pending: [...pending] };
}
