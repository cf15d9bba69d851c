// @ts-check
/**
 * Backup and restore of 100,000 users with their tokens (issue 26): per
 * engine, in a fresh process and run once (seeding dominates): 100,000
 * database users, each with a grant and a refresh token, inserted in bulk;
 * then `idp backup`'s writeBackup to a file and restoreBackup of that file
 * into a new, empty database of the same engine. Reports the seconds of
 * each, the file's size and the rows; the harness adds the peak RSS, which
 * shows that neither holds the population in memory.
 *
 * Run once: `npm run bench -- backup` (a few minutes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBenchDatabase } from '../lib/bench-database.js';
import { restoreBackup, writeBackup } from '../../dist/backup/index.js';
import { systemClock } from '../../dist/clock.js';
import { knexUserRepository } from '../../dist/storage/knex/users.js';

const USERS = 100_000;
const SECRET = 'bench-backup-secret-bench-backup-secret-0123';
// An argon2id hash of the usual length: its verification plays no part here.
const PASSWORD_HASH =
  '$argon2id$v=19$m=19456,p=1,t=2$c29tZXNhbHRzb21lc2FsdA$ISO7kkvFzh19GM8qB7patN3C3Y9HHsjlVTfEZ9T600Y';

/** @param {import('knex').Knex} db */
async function seed(db) {
  const now = Date.now();
  const later = now + 30 * 86_400_000;
  const sub = (/** @type {number} */ i) => `user-${String(i).padStart(6, '0')}`;
  const users = Array.from({ length: USERS }, (_, i) => ({
    sub: sub(i),
    managedBy: /** @type {const} */ ('database'),
    email: `${sub(i)}@example.com`,
    role: /** @type {const} */ ('user'),
    emailVerified: true,
    emailVerificationRequired: false,
    passwordHash: PASSWORD_HASH,
    secondFactorRequired: false,
    name: `User ${i}`,
    givenName: null,
    familyName: null,
    locale: null,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  }));
  const grantId = (/** @type {number} */ i) => `grant-${String(i).padStart(58, '0')}`;
  const scopes = JSON.stringify(['openid', 'email', 'offline_access']);
  // 500 rows per statement: SQLite's cap on a compound SELECT, which is how knex inserts many rows there.
  await db.transaction(async (tx) => {
    await knexUserRepository.insertMany(/** @type {never} */ (tx), users);
    const grants = users.map((_, i) => ({
      grant_id: grantId(i),
      client_id: 'web',
      sub: sub(i),
      scopes,
      auth_time: now,
      amr: '["pwd"]',
      expires_at: later,
      created_at: now,
    }));
    await tx.batchInsert('grants', grants, 500);
    const tokens = users.map((_, i) => ({
      token_hash: `refresh-${String(i).padStart(56, '0')}`,
      grant_id: grantId(i),
      client_id: 'web',
      sub: sub(i),
      scopes,
      expires_at: later,
      created_at: now,
    }));
    await tx.batchInsert('refresh_tokens', tokens, 500);
  });
}

/**
 * @param {'sqlite' | 'postgres'} kind
 * @returns {import('../lib/types.js').Case}
 */
function backupCase(kind) {
  const name = `${USERS.toLocaleString('en')} users with tokens, ${kind}`;
  return {
    name,
    runs: 1,
    async run() {
      const source = await createBenchDatabase(kind);
      const target = await createBenchDatabase(kind);
      const dir = mkdtempSync(path.join(os.tmpdir(), 'idp-bench-backup-'));
      try {
        await seed(source.db);
        const file = path.join(dir, 'bench.idp-backup.gz');
        let started = performance.now();
        const written = await writeBackup(
          { storage: source.storage, clock: systemClock, configuredSecret: SECRET },
          file,
        );
        const backupSeconds = (performance.now() - started) / 1000;
        started = performance.now();
        const restored = await restoreBackup({ storage: target.storage, configuredSecret: SECRET }, file);
        const restoreSeconds = (performance.now() - started) / 1000;
        if (restored.rows !== written.rows) throw new Error(`restored ${restored.rows} rows of ${written.rows}`);
        return [
          { name, metric: 'backup', value: backupSeconds, unit: 's' },
          { name, metric: 'restore', value: restoreSeconds, unit: 's' },
          { name, metric: 'file size', value: written.bytes / 1_000_000, unit: 'MB' },
          { name, metric: 'rows', value: written.rows, unit: 'rows' },
        ];
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await source.destroy();
        await target.destroy();
      }
    },
  };
}

export default {
  description: 'idp backup and idp restore of 100,000 users with a grant and a refresh token each',
  cases: [backupCase('sqlite'), backupCase('postgres')],
};
