import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Clock } from '../clock.js';
import { serverSecretSetting } from '../security/index.js';
import type { SnapshotView, Storage } from '../storage/repositories.js';
import { BackupError } from './backup-error.js';
import { backupFormat, formatVersion, type BackupHeader, type EndLine, type TableLine } from './backup-format.js';
import { encodeValue } from './encode-value.js';
import { sealProbe } from './secret-probe.js';

export interface BackupSummary {
  migration: string;
  tables: number;
  rows: number;
  bytes: number;
}

/**
 * Writes one consistent snapshot of the database (one read transaction) to
 * `file`: streamed a page at a time, into a temporary file beside it (mode
 * 0600: it holds password hashes and sealed secrets) that is renamed over
 * `file` only once complete, so a failed backup leaves no half file.
 */
export async function writeBackup(
  deps: { storage: Storage; clock: Clock; configuredSecret: string | null },
  file: string,
): Promise<BackupSummary> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const counts = await deps.storage.snapshots.read(async (view) => {
      if (view.migration === null) throw new BackupError('the database has no schema yet: there is nothing to back up');
      const header = await headerOf(deps, view, view.migration);
      const counts = { migration: view.migration, tables: 0, rows: 0 };
      await pipeline(
        Readable.from(linesOf(view, header, counts)),
        createGzip(),
        createWriteStream(temporary, { mode: 0o600, flags: 'wx' }),
      );
      return counts;
    });
    await rename(temporary, file);
    return { ...counts, bytes: (await stat(file)).size };
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

async function headerOf(
  deps: { storage: Storage; clock: Clock; configuredSecret: string | null },
  view: SnapshotView,
  migration: string,
): Promise<BackupHeader> {
  const generated = await deps.storage.repositories.settings.get(view.tx, serverSecretSetting);
  const secret = deps.configuredSecret ?? generated;
  return {
    format: backupFormat,
    format_version: formatVersion,
    migration,
    engine: deps.storage.engine,
    created_at: new Date(deps.clock.now()).toISOString(),
    secret: {
      source: deps.configuredSecret ? 'configured' : generated ? 'generated' : 'none',
      probe: secret ? sealProbe(secret) : null,
    },
  };
}

/** The file's lines, a table's page of rows at a time (one string per page, fewer writes). */
async function* linesOf(
  view: SnapshotView,
  header: BackupHeader,
  counts: { tables: number; rows: number },
): AsyncGenerator<string> {
  yield `${JSON.stringify(header)}\n`;
  for (const table of view.tables) {
    const line: TableLine = { table: table.name, columns: table.columns.map((c) => c.name) };
    yield `${JSON.stringify(line)}\n`;
    counts.tables += 1;
    for await (const page of view.pages(table)) {
      counts.rows += page.length;
      yield page.map((row) => `${JSON.stringify(row.map(encodeValue))}\n`).join('');
    }
  }
  const end: EndLine = { end: { tables: counts.tables, rows: counts.rows } };
  yield `${JSON.stringify(end)}\n`;
}
