import path from 'node:path';
import type { DatabaseConfig } from '../config/types.js';
import { connectDatabase, type Database } from '../storage/knex/connect.js';
import { migrateUp } from '../storage/knex/migrate.js';
import { CliError } from './output.js';

/** How long a command waits for PostgreSQL before saying it cannot connect. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The database of a command that reads or writes it (diff, apply): opened,
 * checked with one query, and migrated, so that a fresh database works. A
 * database that cannot be reached is one line (`cannot connect to the
 * database …`), never a stack trace; a password in the URL is never shown.
 */
export async function openCommandDatabase(config: DatabaseConfig, cwd: string): Promise<Database> {
  const resolved = config.client === 'sqlite' && config.filename !== ':memory:' ? { ...config, filename: path.resolve(cwd, config.filename) } : config;
  const db = connectDatabase(resolved);
  try {
    await withTimeout(db.raw('SELECT 1'), CONNECT_TIMEOUT_MS);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw new CliError(`cannot connect to the database ${describeDatabase(resolved)}: ${firstLine(error)}`);
  }
  try {
    await migrateUp(db);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw new CliError(`cannot migrate the database ${describeDatabase(resolved)}: ${firstLine(error)}`);
  }
  return db;
}

function describeDatabase(config: DatabaseConfig): string {
  if (config.client === 'sqlite') return config.filename;
  try {
    const url = new URL(config.url ?? '');
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(database.url is not a URL)';
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] || (error as { code?: string }).code || 'unknown error';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
