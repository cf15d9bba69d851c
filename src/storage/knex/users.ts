import type { Knex } from 'knex';
import type { UserListQuery, UserRepository } from '../repositories.js';
import type { UserRecord } from '../../model/index.js';
import { escapeLike } from './escape-like.js';
import { inBatches } from './in-batches.js';
import { isPostgres } from './connect.js';
import { oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';
import { tableOf, type Row } from './define-table.js';
import { userFields } from '../../model/user-fields.js';

const users = tableOf<UserRecord, typeof userFields>('users', userFields);

type UserChanges = Partial<Omit<UserRecord, 'sub' | 'createdAt'>>;

/**
 * Rows per insert statement: knex writes a multi-row insert on SQLite as a
 * compound SELECT, capped at 500 terms; 400 rows also keep the bound
 * parameters far below both engines' limits.
 */
const BATCH_SIZE = 400;

export function normalizeEmail(email: string): string {
  return email.toLowerCase();
}

/** The columns of the changes, with the lower-cased e-mail that lookups compare beside the e-mail itself. */
function toColumns(changes: UserChanges): Row {
  const columns = users.toColumns(changes);
  if (changes.email !== undefined) columns.email_normalized = normalizeEmail(changes.email);
  return columns;
}

const toRow = (user: UserRecord): Row => toColumns(user);

function applyListFilters(builder: Knex.QueryBuilder, query: UserListQuery, postgres: boolean): void {
  if (!query.includeDeleted) builder.whereNull('deleted_at');
  if (query.managedBy) builder.where('managed_by', query.managedBy);
  if (query.role) builder.where('role', query.role);
  if (query.query) {
    const pattern = `%${escapeLike(query.query.toLowerCase())}%`;
    // SQLite's LIKE already folds ASCII case, exactly as its lower() does, and
    // bare columns let the covering index of migration 0007 answer. On
    // PostgreSQL these are the expressions of the trigram indexes (0006,
    // 0009): lower() of the already lower-cased e-mail keeps the trigram
    // index away from e-mail equality, which the unique B-tree answers.
    const [email, sub] = postgres ? ['lower(email_normalized)', 'lower(sub)'] : ['email_normalized', 'sub'];
    builder.where((q) =>
      q.whereRaw(`${email} LIKE ? ESCAPE '\\'`, [pattern]).orWhereRaw(`${sub} LIKE ? ESCAPE '\\'`, [pattern]),
    );
  }
}

export const knexUserRepository = onKnex<UserRepository>({
  async findBySub(tx, sub) {
    const row = (await tx(users.name).where({ sub }).first()) as Row | undefined;
    return row ? users.fromRow(row) : null;
  },

  async findLiveByEmail(tx, email) {
    const row = (await tx(users.name)
      .where({ email_normalized: normalizeEmail(email) })
      .whereNull('deleted_at')
      .first()) as Row | undefined;
    return row ? users.fromRow(row) : null;
  },

  async listByManager(tx, managedBy) {
    const rows = (await tx(users.name).where({ managed_by: managedBy }).orderBy('sub')) as Row[];
    return rows.map(users.fromRow);
  },

  async list(tx, query) {
    const offset = (query.page - 1) * query.pageSize;
    const page = tx(users.name);
    applyListFilters(page, query, isPostgres(tx));
    const rows = (await page
      .orderBy([{ column: 'email_normalized' }, { column: 'sub' }])
      .limit(query.pageSize)
      .offset(offset)) as Row[];
    // A partly filled page is the last one: the total is known without a
    // second scan (a narrow search over 100,000 users then costs one scan).
    if (rows.length > 0 && rows.length < query.pageSize)
      return { users: rows.map(users.fromRow), total: offset + rows.length };
    const count = tx(users.name);
    applyListFilters(count, query, isPostgres(tx));
    const totals = await count.count<{ total: number | string }[]>({ total: '*' });
    return { users: rows.map(users.fromRow), total: Number(totals[0].total) };
  },

  async findBySubs(tx, subs) {
    const found: UserRecord[] = [];
    for (const list of oneOfLists(tx, subs)) {
      const rows = (await whereOneOf(tx, users.name, 'sub', list)) as Row[];
      found.push(...rows.map(users.fromRow));
    }
    return found;
  },

  async findLiveByEmails(tx, emails) {
    const found: UserRecord[] = [];
    for (const list of oneOfLists(tx, emails.map(normalizeEmail))) {
      const rows = (await whereOneOf(tx, users.name, 'email_normalized', list).whereNull('deleted_at')) as Row[];
      found.push(...rows.map(users.fromRow));
    }
    return found;
  },

  async insert(tx, user) {
    await tx(users.name).insert(toRow(user));
  },

  async insertMany(tx, records) {
    for (const batch of inBatches(records, BATCH_SIZE)) await tx(users.name).insert(batch.map(toRow));
  },

  async update(tx, sub, changes) {
    const columns = toColumns(changes);
    if (Object.keys(columns).length > 0) await tx(users.name).where({ sub }).update(columns);
  },

  async replacePasswordHash(tx, sub, current, next) {
    const changed = await tx(users.name)
      .where({ sub, managed_by: 'database', password_hash: current })
      .update({ password_hash: next });
    return changed === 1;
  },

  async updateMany(tx, subs, changes) {
    const columns = toColumns(changes);
    if (Object.keys(columns).length === 0) return;
    for (const list of oneOfLists(tx, subs)) await whereOneOf(tx, users.name, 'sub', list).update(columns);
  },

  async eraseDeleted(tx, { before, limit, now }) {
    const rows = (await tx(users.name)
      .select('sub')
      .where({ managed_by: 'database' })
      .where('deleted_at', '<', before)
      .orderBy('deleted_at')
      .limit(limit)) as { sub: string }[];
    if (rows.length === 0) return 0;
    const subs = rows.map((row) => row.sub);
    // The tombstone first: a run stopped in between leaves the row, which the next run erases again.
    await tx('erased_users')
      .insert(subs.map((sub) => ({ sub, erased_at: now })))
      .onConflict('sub')
      .ignore();
    let erased = 0;
    for (const list of oneOfLists(tx, subs))
      erased += await whereOneOf(tx, users.name, 'sub', list).whereNotNull('deleted_at').delete();
    return erased;
  },

  async findErasedSubs(tx, subs) {
    const found: string[] = [];
    for (const list of oneOfLists(tx, subs)) {
      const rows = (await whereOneOf(tx, 'erased_users', 'sub', list).select('sub')) as { sub: string }[];
      found.push(...rows.map((row) => row.sub));
    }
    return found;
  },
});
