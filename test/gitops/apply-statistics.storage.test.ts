import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { testClient, testConfig, testUser } from '../support/config-fixture.js';
import { applyConfig } from '../../src/gitops/index.js';

/** `count` config users numbered from `from`. */
function users(from: number, count: number) {
  return Array.from({ length: count }, (_, i) => testUser({ sub: `u${from + i}` }));
}

/**
 * Issue 10 item 10: after apply filled or changed many rows, the planner
 * must not wait for autovacuum (which may be off, as on the test server)
 * to learn about them. Evidence from the catalogs, not from timings.
 */
describe('apply refreshes the planner statistics on postgres', () => {
  let t: TestDatabase;
  const clients = [testClient({ clientId: 'web' }), testClient({ clientId: 'spa' })];
  beforeAll(async () => {
    t = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await t.destroy();
  });

  /** What ANALYZE leaves: the row count, the columns with statistics, how many manual ANALYZEs ran. */
  async function statisticsOf(table: string) {
    const [size] = (await t.db.raw('SELECT reltuples FROM pg_class WHERE oid = ?::regclass', [table])).rows as {
      reltuples: number;
    }[];
    const columns = await t.db('pg_stats').where({ tablename: table }).count<{ n: string }[]>({ n: '*' });
    const [runs] = (await t.db.raw('SELECT analyze_count FROM pg_stat_user_tables WHERE relname = ?', [table]))
      .rows as { analyze_count: string }[];
    return { rows: size.reltuples, columns: Number(columns[0].n), analyzed: Number(runs.analyze_count) };
  }

  it('analyzes the tables the first apply filled, in its transaction', async () => {
    await applyConfig(t.storage, testConfig({ users: users(0, 60), clients }));
    const filled = await statisticsOf('users');
    expect(filled).toMatchObject({ rows: 60, analyzed: 1 });
    expect(filled.columns).toBeGreaterThan(0);
    // A table never analyzed is analyzed whatever the count.
    expect(await statisticsOf('clients')).toMatchObject({ rows: 2, analyzed: 1 });
  });

  it('leaves them alone after a small change, as autovacuum would (50 rows + 10% of the table)', async () => {
    await applyConfig(
      t.storage,
      testConfig({ users: [...users(0, 59), testUser({ sub: 'u59', role: 'admin' })], clients }),
    );
    expect(await statisticsOf('users')).toMatchObject({ rows: 60, analyzed: 1 });
  });

  it('analyzes again after a swap of every user', async () => {
    await applyConfig(t.storage, testConfig({ users: users(100, 60), clients }));
    // 60 soft-deleted and 60 new rows.
    expect(await statisticsOf('users')).toMatchObject({ rows: 120, analyzed: 2 });
    expect(await statisticsOf('clients')).toMatchObject({ analyzed: 1 });
  });
});

describe('apply on sqlite', () => {
  it('writes no planner statistics (sqlite_stat1) that nothing would keep fresh', async () => {
    const t = await createTestDatabase('sqlite');
    try {
      await applyConfig(t.storage, testConfig({ users: users(0, 60), clients: [testClient()] }));
      expect(await t.db('sqlite_master').where({ name: 'sqlite_stat1' })).toEqual([]);
    } finally {
      await t.destroy();
    }
  });
});
