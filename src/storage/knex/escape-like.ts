/**
 * Makes user text match literally inside a LIKE pattern: `%`, `_` and the
 * escape character itself are prefixed with a backslash. Use with
 * `LIKE ? ESCAPE '\'` (SQLite has no default escape character).
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
