import type { Output } from '../output.js';

export interface TableColumn<Row> {
  header: string;
  cell(row: Row): string;
  /** Numbers read better right-aligned. */
  align?: 'left' | 'right';
  /** May be cut (ending in …) down to this width when the terminal is narrow. */
  shrinkTo?: number;
  /**
   * Is cut to this width (not below shrinkTo) before any column is left
   * out: optional columns go only when the table does not fit even so.
   */
  shrinkFirstTo?: number;
  /** May be left out when the terminal is narrow; lower numbers go first. */
  dropOrder?: number;
}

export interface TableOptions<Row> {
  /** A colour for a whole row (a deleted user, say); plain output ignores it. */
  rowStyle?: (row: Row) => ((text: string) => string) | undefined;
}

const gap = '  ';

/**
 * A plain-text table sized to the terminal: when it is too wide, optional
 * columns are left out first, then the shrinkable ones are cut with … (the
 * widest first), except that columns with shrinkFirstTo are cut that far
 * before anything is left out. Widths are measured on plain text; colour
 * comes last.
 */
export function renderTable<Row>(
  output: Output,
  columns: TableColumn<Row>[],
  rows: Row[],
  options: TableOptions<Row> = {},
): string[] {
  const cells = rows.map((row) => columns.map((column) => column.cell(row)));
  const natural = columns.map((column, index) =>
    Math.max(width(column.header), ...cells.map((line) => width(line[index]))),
  );
  // A pseudo-terminal without a size reports 0 columns: treat it as unknown, like a pipe.
  const available = output.columns > 0 ? output.columns : Infinity;
  const cutFirst = natural.map((size, index) =>
    Math.min(size, Math.max(columns[index].shrinkFirstTo ?? size, columns[index].shrinkTo ?? 0)),
  );
  const visible = chooseColumns(columns, cutFirst, available);
  const widths = shrinkColumns(columns, natural, visible, available);

  const line = (values: string[]) =>
    visible
      .map((index) => pad(truncate(values[index], widths[index]), widths[index], columns[index].align))
      .join(gap)
      .trimEnd();

  const header = output.color.bold(line(columns.map((column) => column.header)));
  const body = rows.map((row, rowIndex) => {
    const text = line(cells[rowIndex]);
    const style = options.rowStyle?.(row);
    return style ? style(text) : text;
  });
  return [header, ...body];
}

function chooseColumns<Row>(columns: TableColumn<Row>[], natural: number[], available: number): number[] {
  const visible = columns.map((_, index) => index);
  const droppable = visible
    .filter((index) => columns[index].dropOrder !== undefined)
    .sort((a, b) => (columns[a].dropOrder ?? 0) - (columns[b].dropOrder ?? 0));
  for (const index of droppable) {
    if (totalWidth(visible, natural) <= available) break;
    visible.splice(visible.indexOf(index), 1);
  }
  return visible;
}

function shrinkColumns<Row>(
  columns: TableColumn<Row>[],
  natural: number[],
  visible: number[],
  available: number,
): number[] {
  const widths = [...natural];
  let excess = totalWidth(visible, widths) - available;
  while (excess > 0) {
    const candidates = visible.filter((index) => widths[index] > (columns[index].shrinkTo ?? Infinity));
    if (candidates.length === 0) break;
    const widest = candidates.reduce((a, b) => (widths[b] > widths[a] ? b : a));
    widths[widest] -= 1;
    excess -= 1;
  }
  return widths;
}

function totalWidth(visible: number[], widths: number[]): number {
  return visible.reduce((sum, index) => sum + widths[index], 0) + gap.length * (visible.length - 1);
}

/** Code points, not UTF-16 units: close enough for e-mails and subs. */
function width(text: string): number {
  return Array.from(text).length;
}

function truncate(text: string, size: number): string {
  const chars = Array.from(text);
  return chars.length <= size ? text : `${chars.slice(0, Math.max(size - 1, 0)).join('')}…`;
}

function pad(text: string, size: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(size - width(text), 0));
  return align === 'right' ? fill + text : text + fill;
}
