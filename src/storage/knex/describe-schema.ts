import type { Knex } from 'knex';
import type { ColumnKind, SnapshotTable } from '../repositories.js';
import { isPostgres } from './connect.js';
import { migrationOptions } from './migrate.js';

/** A table as the snapshots see it, with its primary key (the order rows are read in) and serial columns. */
export interface DescribedTable extends SnapshotTable {
  primaryKey: string[];
  /** Columns filled from a sequence on PostgreSQL (bigIncrements, identity). */
  serial: string[];
}

/** The migrator's bookkeeping: a snapshot carries its level in its header instead. */
const migratorTables = new Set([migrationOptions.tableName, `${migrationOptions.tableName}_lock`]);

/**
 * Every table of the database but the migrator's, read from the catalogue
 * (sqlite_master and PRAGMAs; information_schema on PostgreSQL), ordered so
 * that each comes after the tables it references (then by name).
 */
export async function describeSchema(db: Knex): Promise<DescribedTable[]> {
  const tables = isPostgres(db) ? await describePostgres(db) : await describeSqlite(db);
  const ours = tables.filter((t) => !migratorTables.has(t.name));
  for (const table of ours) table.references.sort();
  return dependencyOrder(ours);
}

async function describeSqlite(db: Knex): Promise<DescribedTable[]> {
  const names = (await db.raw(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
  )) as { name: string }[];
  const tables: DescribedTable[] = [];
  for (const { name } of names) {
    const columns = (await db.raw('SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid', [name])) as {
      name: string;
      type: string;
      pk: number;
    }[];
    const keys = (await db.raw('SELECT DISTINCT "table" AS target FROM pragma_foreign_key_list(?)', [name])) as {
      target: string;
    }[];
    tables.push({
      name,
      columns: columns.map((c) => ({ name: c.name, kind: kindOf(c.type) })),
      references: keys.map((k) => k.target).filter((t) => t !== name),
      primaryKey: columns
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
      // AUTOINCREMENT keeps sqlite_sequence past the highest id inserted, explicit or not.
      serial: [],
    });
  }
  return tables;
}

async function describePostgres(db: Knex): Promise<DescribedTable[]> {
  const columns = (
    (await db.raw(`
      SELECT c.table_name, c.column_name, c.data_type,
             (c.is_identity = 'YES' OR c.column_default LIKE 'nextval(%') AS serial
        FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
       ORDER BY c.table_name, c.ordinal_position`)) as { rows: unknown }
  ).rows as { table_name: string; column_name: string; data_type: string; serial: boolean }[];
  const constraints = (
    (await db.raw(`
      SELECT rel.relname AS table_name, con.contype AS type, target.relname AS target,
             array_to_json(ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY AS k(num, pos)
                                   JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num
                                  ORDER BY k.pos)) AS columns
        FROM pg_constraint con
        JOIN pg_class rel ON rel.oid = con.conrelid
        LEFT JOIN pg_class target ON target.oid = con.confrelid
       WHERE rel.relnamespace = current_schema()::regnamespace AND con.contype IN ('p', 'f')`)) as { rows: unknown }
  ).rows as { table_name: string; type: 'p' | 'f'; target: string | null; columns: string[] }[];
  const byName = new Map<string, DescribedTable>();
  for (const c of columns) {
    let table = byName.get(c.table_name);
    if (!table) {
      table = { name: c.table_name, columns: [], references: [], primaryKey: [], serial: [] };
      byName.set(c.table_name, table);
    }
    table.columns.push({ name: c.column_name, kind: kindOf(c.data_type) });
    if (c.serial) table.serial.push(c.column_name);
  }
  for (const table of byName.values())
    for (const con of constraints.filter((c) => c.table_name === table.name)) {
      if (con.type === 'p') table.primaryKey = con.columns;
      else if (con.target !== null && con.target !== table.name && !table.references.includes(con.target))
        table.references.push(con.target);
    }
  return [...byName.values()];
}

/** A column's kind from its declared type (SQLite keeps the name knex declared; PostgreSQL names its own). */
export function kindOf(declared: string): ColumnKind {
  const type = declared.toLowerCase();
  if (type.includes('bool')) return 'boolean';
  if (type.includes('int')) return 'integer';
  if (/char|text|clob|uuid/.test(type)) return 'text';
  if (/bytea|blob|binary/.test(type)) return 'binary';
  if (type.includes('json')) return 'json';
  if (/time|date/.test(type)) return 'time';
  if (/real|double|float|numeric|decimal/.test(type)) return 'number';
  return 'other';
}

/** Tables after those they reference (a depth-first walk), ties by name. */
function dependencyOrder(tables: DescribedTable[]): DescribedTable[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const ordered: DescribedTable[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (table: DescribedTable) => {
    if (placed.has(table.name) || visiting.has(table.name)) return;
    visiting.add(table.name);
    for (const name of table.references) {
      const target = byName.get(name);
      if (target) visit(target);
    }
    visiting.delete(table.name);
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(table);
  return ordered;
}
