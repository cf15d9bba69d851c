/**
 * Backup and restore across engines (docs/operations.md, "Backup and
 * restore"): writeBackup reads one consistent snapshot of every table
 * (Storage.snapshots.read) into a gzip'd JSON-lines file (backup-format.ts,
 * values through encode-value.ts, the header carrying a probe sealed with the
 * server secret: secret-probe.ts); restoreBackup checks the header, migrates
 * an empty database to the backup's level and loads the rows in one
 * transaction (Storage.snapshots.load), failing on the first bad line with
 * its number.
 */
export { BackupError } from './backup-error.js';
export { writeBackup, type BackupSummary } from './write-backup.js';
export { restoreBackup, type RestoreSummary } from './restore-backup.js';
