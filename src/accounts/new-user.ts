import { randomUUID } from 'node:crypto';
import { emailAlreadyExists } from '../api-error.js';
import type { UserRecord } from '../model/index.js';
import type { Tx, UserRepository } from '../storage/repositories.js';

/**
 * A database-managed user as every way of creating one starts it
 * (registration, an upstream sign-up, the admin API): a new sub, the
 * profile empty (the user's to fill in, PATCH /api/user), no second factor
 * demanded of this user alone.
 */
export function newDatabaseUser(
  fields: Pick<UserRecord, 'email' | 'role' | 'emailVerified' | 'emailVerificationRequired' | 'passwordHash'>,
  now: number,
): UserRecord {
  return {
    sub: randomUUID(),
    managedBy: 'database',
    ...fields,
    secondFactorRequired: false,
    name: null,
    givenName: null,
    familyName: null,
    locale: null,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Inserts a new user. The database refusing it for a unique index
 * (PostgreSQL 23505, SQLite's UNIQUE constraint) means two creates raced
 * for one e-mail and the index let the other win: 409, not 500.
 */
export async function insertNewUser(users: UserRepository, tx: Tx, user: UserRecord): Promise<void> {
  try {
    await users.insert(tx, user);
  } catch (error) {
    const e = error as { code?: string; message?: string };
    if (e.code === '23505' || (e.code === 'SQLITE_CONSTRAINT' && /UNIQUE/i.test(e.message ?? '')))
      throw emailAlreadyExists();
    throw error;
  }
}
