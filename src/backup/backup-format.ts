import { BackupError } from './backup-error.js';

/**
 * The backup file (docs/operations.md, "Backup and restore"): gzip'd JSON
 * lines. Line 1 is the header; then, per table, a table line naming its
 * columns followed by one JSON array per row (values in the columns' order,
 * encode-value.ts); the last line is the end line with the counts, so that
 * a file cut at a line boundary is still noticed.
 *
 *   {"format":"idp-backup","format_version":1,"migration":"0027_….js","engine":"sqlite",
 *    "created_at":"2026-…Z","secret":{"source":"configured","probe":"v1.…"}}
 *   {"table":"users","columns":["sub","managed_by",…]}
 *   ["alice","database",…]
 *   {"end":{"tables":27,"rows":123456}}
 */
export const backupFormat = 'idp-backup';
export const formatVersion = 1;

/**
 * Which secret sealed the file's secrets: `configured` (security.secret),
 * `generated` (the one kept in the settings table, which travels in the
 * file), or `none` (the instance never used one: nothing is sealed).
 */
export type SecretSource = 'configured' | 'generated' | 'none';

export interface BackupHeader {
  format: typeof backupFormat;
  format_version: number;
  migration: string;
  engine: 'sqlite' | 'postgres';
  created_at: string;
  secret: { source: SecretSource; probe: string | null };
}

export interface TableLine {
  table: string;
  columns: string[];
}

export interface EndLine {
  end: { tables: number; rows: number };
}

/** The header of line 1, or why it is not one this idp can restore. */
export function parseHeader(line: unknown): BackupHeader {
  const header = line as Partial<BackupHeader> | null;
  if (typeof header !== 'object' || header === null || header.format !== backupFormat)
    throw new BackupError('line 1: not an idp backup (its first line is not an idp-backup header)');
  if (!Number.isInteger(header.format_version) || (header.format_version as number) < 1)
    throw new BackupError('line 1: the header has no valid format_version');
  if ((header.format_version as number) > formatVersion)
    throw new BackupError(
      `line 1: the backup's format version ${header.format_version} is newer than this idp reads (${formatVersion}): restore it with a newer idp`,
    );
  const secret = header.secret as { source?: unknown; probe?: unknown } | null | undefined;
  const sources: unknown[] = ['configured', 'generated', 'none'];
  if (
    typeof header.migration !== 'string' ||
    (header.engine !== 'sqlite' && header.engine !== 'postgres') ||
    typeof header.created_at !== 'string' ||
    typeof secret !== 'object' ||
    secret === null ||
    !sources.includes(secret.source) ||
    (secret.source === 'none' ? secret.probe !== null : typeof secret.probe !== 'string')
  )
    throw new BackupError('line 1: the header lacks migration, engine, created_at or secret, or one is malformed');
  return header as BackupHeader;
}

export function isTableLine(line: object): line is TableLine {
  return 'table' in line;
}

/** An end line as it may come from a file: its counts are checked by whoever reads it. */
export function isEndLine(line: object): line is { end: unknown } {
  return 'end' in line;
}
