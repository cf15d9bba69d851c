import { describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds } from '../support/databases.js';
import { migrateUp, migrationStatus } from '../../src/storage/knex/migrate.js';

describe.each(databaseKinds)('migrations on %s', (kind) => {
  it('run forward from empty, then report nothing pending', async () => {
    const t = await createTestDatabase(kind, { migrate: false });
    try {
      const before = await migrationStatus(t.db);
      expect(before.applied).toEqual([]);
      expect(before.pending.length).toBeGreaterThan(0);
      const applied = await migrateUp(t.db);
      expect(applied).toEqual(before.pending);
      const after = await migrationStatus(t.db);
      expect(after.pending).toEqual([]);
      expect(await migrateUp(t.db)).toEqual([]);
    } finally {
      await t.destroy();
    }
  });

  it('keep e-mails unique among live users only', async () => {
    const t = await createTestDatabase(kind);
    try {
      const row = (sub: string, deletedAt: number | null) => ({
        sub,
        managed_by: 'database',
        email: 'A@x.io',
        email_normalized: 'a@x.io',
        role: 'user',
        email_verified: false,
        email_verification_required: false,
        second_factor_required: false,
        deleted_at: deletedAt,
        created_at: 1,
        updated_at: 1,
      });
      await t.db('users').insert(row('one', 5));
      await t.db('users').insert(row('two', null));
      await expect(t.db('users').insert(row('three', null))).rejects.toThrow();
    } finally {
      await t.destroy();
    }
  });
});
