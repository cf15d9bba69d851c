import path from 'node:path';
import type { Config, DatabaseConfig } from '../config/types.js';
import { createFoundation, type Foundation } from '../app.js';
import { CliError } from './output.js';

/** How long a command waits for PostgreSQL before saying it cannot connect. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The foundation (storage and clock, from the composition root) of a command
 * that reads or writes the database: a SQLite file is resolved against the
 * command's directory, the database is checked with one query and migrated
 * (unless `migrate: false`), so that a fresh database works. A database that
 * cannot be reached is one line (`cannot connect to the database …`), never
 * a stack trace; a password in the URL is never shown.
 */
export async function openCommandFoundation(
  config: Config,
  cwd: string,
  options: { migrate?: boolean } = {},
): Promise<Foundation> {
  const database = config.database;
  const resolved =
    database.client === 'sqlite' && database.filename !== ':memory:'
      ? { ...database, filename: path.resolve(cwd, database.filename) }
      : database;
  const foundation = createFoundation({ ...config, database: resolved });
  const { storage } = foundation;
  try {
    await withTimeout(storage.ping(), CONNECT_TIMEOUT_MS);
  } catch (error) {
    await storage.close().catch(() => {});
    throw new CliError(`cannot connect to the database ${describeDatabase(resolved)}: ${firstLine(error)}`);
  }
  if (options.migrate === false) return foundation;
  try {
    await storage.migrate();
  } catch (error) {
    await storage.close().catch(() => {});
    throw new CliError(`cannot migrate the database ${describeDatabase(resolved)}: ${firstLine(error)}`);
  }
  return foundation;
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
