import { serverSecretSetting } from '../security/index.js';
import type { SnapshotLoader, SnapshotTable, Storage } from '../storage/repositories.js';
import { BackupError } from './backup-error.js';
import { isEndLine, isTableLine, parseHeader, type BackupHeader } from './backup-format.js';
import { decodeValue } from './encode-value.js';
import { readLines } from './read-lines.js';
import { opensProbe } from './secret-probe.js';

export interface RestoreSummary {
  header: BackupHeader;
  tables: number;
  rows: number;
  /** The migrations run after the rows went in, up to this build's latest. */
  migratedAfter: string[];
}

/**
 * Loads a backup into an empty database of either engine: the header is
 * checked first (format, a migration level this build knows, the secret
 * probe), the schema is migrated to the backup's level, then every row goes
 * in, table by table in batches, in ONE transaction that refuses a
 * non-empty database and rolls back on the first line that is wrong, so
 * the database is left as empty as it was. Afterwards the remaining
 * migrations run, as `idp migrate` would.
 */
export async function restoreBackup(
  deps: { storage: Storage; configuredSecret: string | null },
  file: string,
): Promise<RestoreSummary> {
  const { storage } = deps;
  const lines = readLines(file);
  const first = await lines.next();
  if (first.done) throw new BackupError('line 1: the file is empty');
  const header = parseHeader(parseLine(first.value));
  checkSecret(header, deps.configuredSecret);

  const known = await storage.snapshots.knownMigrations();
  if (!known.includes(header.migration))
    throw new BackupError(
      `line 1: the backup is at migration ${header.migration}, which this idp does not know: restore it with the idp that made it, or a newer one`,
    );
  const current = (await storage.migrationStatus()).applied.at(-1);
  if (current !== undefined && current > header.migration)
    throw new BackupError(
      `the database is at migration ${current}, past the backup's ${header.migration}: restore into a new, empty database`,
    );
  await refuseNonEmpty(storage);
  await storage.snapshots.migrateTo(header.migration);

  const counts = await storage.snapshots.load(async (loader) => {
    await refuseNonEmpty(storage, loader);
    const counts = await loadRows(loader, lines);
    if (header.secret.source === 'generated' && !deps.configuredSecret) {
      // The secret travelled in the settings rows just loaded: it must be the one that sealed the probe.
      const secret = await storage.repositories.settings.get(loader.tx, serverSecretSetting);
      if (secret === null || !opensProbe(header.secret.probe as string, secret))
        throw new BackupError(
          "the generated secret in the backup's settings does not open its secret probe: the file was edited or damaged",
        );
    }
    return counts;
  });
  const migratedAfter = await storage.migrate();
  return { header, ...counts, migratedAfter };
}

function checkSecret(header: BackupHeader, configured: string | null): void {
  const { source, probe } = header.secret;
  if (source === 'none') return;
  if (configured) {
    if (opensProbe(probe as string, configured)) return;
    throw new BackupError(
      source === 'configured'
        ? 'line 1: the backup was made with a different security.secret: restore with the security.secret of the instance that made it (nothing was written)'
        : 'line 1: the backup was made without security.secret (its generated secret travels in the file): restore with security.secret unset (nothing was written)',
    );
  }
  if (source === 'configured')
    throw new BackupError(
      'line 1: the backup was made with security.secret set: restore with the same security.secret in the config (nothing was written)',
    );
}

async function refuseNonEmpty(storage: Storage, loader?: SnapshotLoader): Promise<void> {
  const found = loader ? await loader.nonEmptyTables() : await storage.snapshots.load((l) => l.nonEmptyTables());
  if (found.length > 0)
    throw new BackupError(
      `the database is not empty (rows in ${found.join(', ')}): restore into a new, empty database`,
    );
}

interface Batch {
  table: SnapshotTable;
  columns: { name: string; kind: SnapshotTable['columns'][number]['kind'] }[];
  rows: unknown[][];
  firstLine: number;
  size: number;
}

async function loadRows(
  loader: SnapshotLoader,
  lines: AsyncGenerator<{ number: number; text: string }>,
): Promise<{ tables: number; rows: number }> {
  const seen = new Set<string>();
  let batch: Batch | null = null;
  let rows = 0;
  let lastLine = 1;

  const flush = async (upTo: number) => {
    if (!batch || batch.rows.length === 0) return;
    const { table, columns, firstLine } = batch;
    try {
      await loader.insert(table.name, columns, batch.rows);
    } catch (error) {
      const where = firstLine === upTo ? `line ${firstLine}` : `lines ${firstLine}-${upTo}`;
      const cause = (error as Error).message.split('\n')[0];
      throw new BackupError(`${where} (table ${table.name}): the database refused the rows: ${cause}`);
    }
    batch.rows = [];
  };

  for await (const { number, text } of lines) {
    lastLine = number;
    const line = parseLine({ number, text });
    if (Array.isArray(line)) {
      const current = batch;
      if (!current) throw new BackupError(`line ${number}: a row before any table line`);
      if (line.length !== current.columns.length)
        throw new BackupError(
          `line ${number}: ${line.length} values for the ${current.columns.length} columns of ${current.table.name}`,
        );
      if (current.rows.length === 0) current.firstLine = number;
      current.rows.push(
        line.map((encoded, i) => {
          const column = current.columns[i];
          const decoded = decodeValue(encoded, column.kind);
          if ('problem' in decoded)
            throw new BackupError(`line ${number}: ${current.table.name}.${column.name}: ${decoded.problem}`);
          return decoded.value;
        }),
      );
      rows += 1;
      if (current.rows.length >= current.size) await flush(number);
    } else if (typeof line === 'object' && line !== null && isTableLine(line)) {
      await flush(number - 1);
      batch = startTable(loader, line, number, seen);
    } else if (typeof line === 'object' && line !== null && isEndLine(line)) {
      await flush(number - 1);
      const { tables: tableCount, rows: rowCount } = (line.end ?? {}) as { tables?: unknown; rows?: unknown };
      if (tableCount !== seen.size || rowCount !== rows)
        throw new BackupError(
          `line ${number}: the end line counts ${JSON.stringify(tableCount)} tables and ${JSON.stringify(rowCount)} rows, the file holds ${seen.size} and ${rows}`,
        );
      const after = await lines.next();
      if (!after.done) throw new BackupError(`line ${after.value.number}: text after the end line`);
      return { tables: seen.size, rows };
    } else throw new BackupError(`line ${number}: neither a row, a table line nor the end line`);
  }
  throw new BackupError(`line ${lastLine + 1}: the file ends before its end line (truncated?)`);
}

function startTable(
  loader: SnapshotLoader,
  line: { table: unknown; columns?: unknown },
  number: number,
  seen: Set<string>,
): Batch {
  const name = line.table;
  const table = typeof name === 'string' ? loader.tables.get(name) : undefined;
  if (!table) throw new BackupError(`line ${number}: table ${JSON.stringify(name)} does not exist in this database`);
  if (seen.has(table.name)) throw new BackupError(`line ${number}: table ${table.name} appears twice`);
  const missing = table.references.find((r) => !seen.has(r));
  if (missing !== undefined)
    throw new BackupError(`line ${number}: table ${table.name} comes before ${missing}, which it references`);
  if (!Array.isArray(line.columns) || line.columns.length === 0)
    throw new BackupError(`line ${number}: table ${table.name} has no list of columns`);
  const columns = line.columns.map((c: unknown) => {
    const column = table.columns.find((col) => col.name === c);
    if (!column)
      throw new BackupError(`line ${number}: column ${table.name}.${String(c)} does not exist in this database`);
    return column;
  });
  if (new Set(columns).size !== columns.length)
    throw new BackupError(`line ${number}: table ${table.name} names a column twice`);
  seen.add(table.name);
  return { table, columns, rows: [], firstLine: number + 1, size: loader.batchSize(columns.length) };
}

function parseLine({ number, text }: { number: number; text: string }): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BackupError(`line ${number}: not JSON (${(error as Error).message})`);
  }
}
