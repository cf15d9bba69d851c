// @ts-check

/**
 * @param {import('./types.js').Target | null} target
 * @param {number | null} value
 * @returns {boolean | null} null when there is no target or no value
 */
export function meetsTarget(target, value) {
  if (!target || value === null) return null;
  if (target.max !== undefined && !(value < target.max)) return false;
  if (target.min !== undefined && !(value > target.min)) return false;
  return true;
}

/** @param {import('./types.js').Target | null} target @param {string} unit */
function showTarget(target, unit) {
  if (!target) return '';
  const parts = [];
  if (target.max !== undefined) parts.push(`< ${target.max} ${unit}`);
  if (target.min !== undefined) parts.push(`> ${target.min} ${unit}`);
  return parts.join(', ');
}

/** @param {number | null} value */
function showValue(value) {
  if (value === null) return '—';
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(1);
}

/**
 * The results as a markdown table, one row per measurement.
 * @param {import('./types.js').Row[]} rows
 */
export function toMarkdown(rows) {
  const lines = ['| suite | case | metric | value | target | ok |', '|---|---|---|---:|---|---|'];
  for (const row of rows) {
    const ok = row.ok === null ? '' : row.ok ? 'yes' : '**no**';
    const value = `${showValue(row.value)} ${row.unit}${row.note ? ` (${row.note})` : ''}`;
    lines.push(
      `| ${row.suite} | ${row.name} | ${row.metric} | ${value} | ${showTarget(row.target, row.unit)} | ${ok} |`,
    );
  }
  return lines.join('\n');
}
