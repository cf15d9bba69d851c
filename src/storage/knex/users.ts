import type { Knex } from 'knex';
import type { UserListQuery, UserRepository } from '../repositories.js';
import type { ManagedBy, UserRecord } from '../../model/index.js';
import { escapeLike } from './escape-like.js';
import { inBatches } from './in-batches.js';
import { isPostgres } from './connect.js';
import { oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface UserRow {
  sub: string;
  managed_by: ManagedBy;
  email: string;
  email_normalized: string;
  role: UserRecord['role'];
  email_verified: boolean | number;
  email_verification_required: boolean | number;
  password_hash: string | null;
  second_factor_required: boolean | number;
  name: string | null;
  given_name: string | null;
  family_name: string | null;
  locale: string | null;
  deleted_at: DbInteger | null;
  created_at: DbInteger;
  updated_at: DbInteger;
}

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

function fromRow(row: UserRow): UserRecord {
  return {
    sub: row.sub,
    managedBy: row.managed_by,
    email: row.email,
    role: row.role,
    emailVerified: Boolean(row.email_verified),
    emailVerificationRequired: Boolean(row.email_verification_required),
    passwordHash: row.password_hash,
    secondFactorRequired: Boolean(row.second_factor_required),
    name: row.name,
    givenName: row.given_name,
    familyName: row.family_name,
    locale: row.locale,
    deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toRow(user: UserRecord): UserRow {
  return {
    sub: user.sub,
    managed_by: user.managedBy,
    email: user.email,
    email_normalized: normalizeEmail(user.email),
    role: user.role,
    email_verified: user.emailVerified,
    email_verification_required: user.emailVerificationRequired,
    password_hash: user.passwordHash,
    second_factor_required: user.secondFactorRequired,
    name: user.name,
    given_name: user.givenName,
    family_name: user.familyName,
    locale: user.locale,
    deleted_at: user.deletedAt,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
  };
}

function toColumns(changes: UserChanges): Partial<UserRow> {
  const columns: Partial<UserRow> = {};
  if (changes.managedBy !== undefined) columns.managed_by = changes.managedBy;
  if (changes.email !== undefined) {
    columns.email = changes.email;
    columns.email_normalized = normalizeEmail(changes.email);
  }
  if (changes.role !== undefined) columns.role = changes.role;
  if (changes.emailVerified !== undefined) columns.email_verified = changes.emailVerified;
  if (changes.emailVerificationRequired !== undefined)
    columns.email_verification_required = changes.emailVerificationRequired;
  if (changes.passwordHash !== undefined) columns.password_hash = changes.passwordHash;
  if (changes.secondFactorRequired !== undefined) columns.second_factor_required = changes.secondFactorRequired;
  if (changes.name !== undefined) columns.name = changes.name;
  if (changes.givenName !== undefined) columns.given_name = changes.givenName;
  if (changes.familyName !== undefined) columns.family_name = changes.familyName;
  if (changes.locale !== undefined) columns.locale = changes.locale;
  if (changes.deletedAt !== undefined) columns.deleted_at = changes.deletedAt;
  if (changes.updatedAt !== undefined) columns.updated_at = changes.updatedAt;
  return columns;
}

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
    const row = (await tx<UserRow>('users').where({ sub }).first()) as UserRow | undefined;
    return row ? fromRow(row) : null;
  },

  async findLiveByEmail(tx, email) {
    const row = (await tx<UserRow>('users')
      .where({ email_normalized: normalizeEmail(email) })
      .whereNull('deleted_at')
      .first()) as UserRow | undefined;
    return row ? fromRow(row) : null;
  },

  async listByManager(tx, managedBy) {
    const rows = await tx<UserRow>('users').where({ managed_by: managedBy }).orderBy('sub');
    return rows.map(fromRow);
  },

  async list(tx, query) {
    const offset = (query.page - 1) * query.pageSize;
    const page = tx<UserRow>('users');
    applyListFilters(page, query, isPostgres(tx));
    const rows = await page
      .orderBy([{ column: 'email_normalized' }, { column: 'sub' }])
      .limit(query.pageSize)
      .offset(offset);
    // A partly filled page is the last one: the total is known without a
    // second scan (a narrow search over 100,000 users then costs one scan).
    if (rows.length > 0 && rows.length < query.pageSize)
      return { users: rows.map(fromRow), total: offset + rows.length };
    const count = tx<UserRow>('users');
    applyListFilters(count, query, isPostgres(tx));
    const totals = await count.count<{ total: number | string }[]>({ total: '*' });
    return { users: rows.map(fromRow), total: Number(totals[0].total) };
  },

  async findBySubs(tx, subs) {
    const found: UserRecord[] = [];
    for (const list of oneOfLists(tx, subs)) {
      const rows = (await whereOneOf(tx, 'users', 'sub', list)) as UserRow[];
      found.push(...rows.map(fromRow));
    }
    return found;
  },

  async findLiveByEmails(tx, emails) {
    const found: UserRecord[] = [];
    for (const list of oneOfLists(tx, emails.map(normalizeEmail))) {
      const rows = (await whereOneOf(tx, 'users', 'email_normalized', list).whereNull('deleted_at')) as UserRow[];
      found.push(...rows.map(fromRow));
    }
    return found;
  },

  async insert(tx, user) {
    await tx('users').insert(toRow(user));
  },

  async insertMany(tx, users) {
    for (const batch of inBatches(users, BATCH_SIZE)) await tx('users').insert(batch.map(toRow));
  },

  async update(tx, sub, changes) {
    const columns = toColumns(changes);
    if (Object.keys(columns).length > 0) await tx('users').where({ sub }).update(columns);
  },

  async updateMany(tx, subs, changes) {
    const columns = toColumns(changes);
    if (Object.keys(columns).length === 0) return;
    for (const list of oneOfLists(tx, subs)) await whereOneOf(tx, 'users', 'sub', list).update(columns);
  },

  async eraseDeleted(tx, { before, limit, now }) {
    const rows = (await tx('users')
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
      erased += await whereOneOf(tx, 'users', 'sub', list).whereNotNull('deleted_at').delete();
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
