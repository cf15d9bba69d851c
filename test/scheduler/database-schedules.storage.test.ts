import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { databaseSchedules } from '../../src/scheduler/database-schedules.js';
import type { ScheduledJob } from '../../src/scheduler/index.js';
import { knexSchedulerLeaseRepository as leases } from '../../src/storage/knex/scheduler-leases.js';
import { connectDatabase } from '../../src/storage/knex/connect.js';
import { txOf } from '../../src/storage/knex/on-knex.js';
import type { Tx } from '../../src/storage/repositories.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { manualClock, type ManualClock } from './scheduler-fixture.js';

describe.each(databaseKinds)('database-mode schedules on %s', (kind) => {
  let t: TestDatabase;
  let clock: ManualClock;
  let runs: { instance: string; tick: number }[];
  const everySecond: ScheduledJob = { name: 'cleanup', schedule: '* * * * * *', run: async () => ({}) };

  beforeEach(async () => {
    t = await createTestDatabase(kind);
    clock = manualClock(Date.UTC(2026, 0, 1, 0, 0, 0, 500));
    runs = [];
  });
  afterEach(async () => {
    await t.destroy();
  });

  function instance(name: string, db: Tx = t.tx, lockTtlMs = 10_000, hold?: Promise<void>) {
    return databaseSchedules(
      [everySecond],
      async (_job, tick) => {
        runs.push({ instance: name, tick });
        await hold;
        return null;
      },
      {
        db,
        leases,
        clock,
        logger: pino({ level: 'silent' }),
        config: { instanceId: name, pollIntervalMs: 10, lockTtlMs },
      },
    );
  }

  it('each tick runs exactly once across instances that poll at the same moment', async () => {
    const extra = [connectDatabase(t.config), connectDatabase(t.config)];
    try {
      const instances = [instance('a'), instance('b', txOf(extra[0])), instance('c', txOf(extra[1]))];
      await Promise.all(instances.map(async (i) => Promise.all(await i.pollOnce())));
      expect(runs).toEqual([]); // the first poll records "now" as the last tick: no past tick runs
      for (let second = 1; second <= 10; second += 1) {
        clock.advance(1000);
        await Promise.all(instances.map(async (i) => Promise.all(await i.pollOnce())));
      }
      expect(runs.map((r) => r.tick)).toEqual(Array.from({ length: 10 }, (_, i) => Date.UTC(2026, 0, 1, 0, 0, 1 + i)));
      expect(await leases.find(t.tx, 'cleanup')).toMatchObject({
        owner: null,
        expiresAt: null,
        lastTickAt: Date.UTC(2026, 0, 1, 0, 0, 10),
        lastError: null,
      });
    } finally {
      await Promise.all(extra.map((db) => db.destroy()));
    }
  });

  it('ticks missed while every instance was down run once, for the latest', async () => {
    const a = instance('a');
    expect(await a.pollOnce()).toEqual([]);
    clock.advance(3_600_000);
    await Promise.all(await a.pollOnce());
    expect(runs).toEqual([{ instance: 'a', tick: Date.UTC(2026, 0, 1, 1, 0, 0) }]);
  });

  it('a live lease blocks other instances; once its holder dies and it expires, the next tick is claimed elsewhere', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a = instance('a', t.tx, 5000, hold);
    const b = instance('b', t.tx, 5000);
    expect(await a.pollOnce()).toEqual([]);
    clock.advance(1000);
    const running = await a.pollOnce(); // a claims 00:00:01 and stays in its run
    expect(running).toHaveLength(1);
    clock.advance(2000);
    expect(await b.pollOnce()).toEqual([]); // a's lease is live: 00:00:03 waits
    clock.advance(3000); // a's lease (taken at 00:00:01.5 for 5 s) has expired: a is presumed dead
    await Promise.all(await b.pollOnce());
    expect(runs).toEqual([
      { instance: 'a', tick: Date.UTC(2026, 0, 1, 0, 0, 1) },
      { instance: 'b', tick: Date.UTC(2026, 0, 1, 0, 0, 6) },
    ]);
    release();
    await Promise.all(running);
    // a's late finish does not clear b's record: finish is conditional on the owner.
    expect(await leases.find(t.tx, 'cleanup')).toMatchObject({
      lastTickAt: Date.UTC(2026, 0, 1, 0, 0, 6),
      owner: null,
    });
  });
});
