/**
 * The database refused an insert for a unique index (PostgreSQL 23505,
 * SQLite's UNIQUE constraint): two creates racing for one e-mail, of which
 * the index lets one win. The loser answers 409, not 500.
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === '23505' || (e.code === 'SQLITE_CONSTRAINT' && /UNIQUE/i.test(e.message ?? ''));
}
