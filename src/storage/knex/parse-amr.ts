/** A stored amr column (a JSON array of RFC 8176 values); rows written before migration 0012 hold null: unknown, []. */
export function parseAmr(column: string | null): string[] {
  return column === null ? [] : (JSON.parse(column) as string[]);
}
