/**
 * Splits a list into slices of at most `size`: bulk statements stay under
 * the engines' bound-parameter limits (SQLite 32766, PostgreSQL 65535).
 */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}
