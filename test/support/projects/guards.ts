import childProcess from 'node:child_process';
import path from 'node:path';
import { syncBuiltinESMExports } from 'node:module';
import pg from 'pg';
import sqlite3 from 'sqlite3';

/**
 * What keeps each test file in the project its name says (docs/testing.md):
 * a project's setup file forbids what the project must not use, so a test
 * filed in the wrong project fails with a message that names the right one
 * instead of passing on a machine that happens to have PostgreSQL, Chromium
 * and a built dist/. The guards patch the drivers and child_process of this
 * worker process only: a worker runs files of one project, one after
 * another (isolate: false in vitest.config.ts).
 */

const where = 'see docs/testing.md';

/** Opening SQLite or PostgreSQL (knex, the app's storage or pg directly) throws. */
export function forbidDatabases(project: string): void {
  const refuse = (engine: string) => {
    throw new Error(
      `${project} tests open no database (this one opened ${engine}): a test that needs storage is named *.storage.test.ts (${where})`,
    );
  };
  // knex reaches both drivers through require('pg') / require('sqlite3'), the same module objects as here.
  pg.Client.prototype.connect = () => refuse('PostgreSQL');
  // A function, not an arrow: knex calls it with `new`.
  (sqlite3 as { Database: unknown }).Database = function Database() {
    refuse('SQLite');
  };
}

/**
 * Starting a child process throws, unless `allow` accepts its command. Every
 * route to one goes through these functions (execa and playwright included).
 */
export function forbidChildProcesses(project: string, allow: (command: string) => boolean = () => false): void {
  const names = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
  type Spawner = (...args: unknown[]) => unknown;
  const modifiable = childProcess as unknown as Record<(typeof names)[number], Spawner> & {
    [originalsKey]?: Record<(typeof names)[number], Spawner>;
  };
  // A worker runs this once per file (isolate: false): wrap the real functions, not the last file's wrappers.
  const originals = (modifiable[originalsKey] ??= { ...modifiable });
  for (const name of names) {
    const original = originals[name];
    modifiable[name] = (...args: unknown[]) => {
      const command = String(args[0]);
      if (!allow(command))
        throw new Error(`${project} tests start no child process (this one ran ${command}): ${hint(command)}`);
      return original(...args);
    };
  }
  // ES module importers (import { spawn } from 'node:child_process') see the patched functions too.
  syncBuiltinESMExports();
}

/** Where the unpatched child_process functions are kept, on the module object itself, across re-runs of this file. */
const originalsKey = Symbol.for('idp.test.childProcessOriginals');

/** A Chromium binary, as playwright launches it. */
export function isChromium(command: string): boolean {
  return /chrom/i.test(path.basename(command));
}

function hint(command: string): string {
  return isChromium(command)
    ? `a test that drives Chromium is named *.browser.test.ts (${where})`
    : `a test that spawns bin/idp or another process is named *.process.test.ts (${where})`;
}
