import { beforeAll, expect, it } from 'vitest';
import type { SchedulerLeaseRepository, Tx } from '../../../src/storage/repositories.js';
import { racers, withStorages, type Subject } from './subject.js';

export function describeSchedulerLeases(s: Subject): void {
  let leases: SchedulerLeaseRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { schedulerLeases: leases },
    } = s);
  });

  const claimTick = (name: string, owner: string, tick: number, now: number, expiresAt = now + 1000) =>
    leases.claimTick(db, { name, owner, tick, now, expiresAt });

  it('ensure creates the row once, its last tick at now; find and list read it', async () => {
    const fresh = {
      name: 'cleanup',
      owner: null,
      expiresAt: null,
      lastTickAt: 1000,
      lastStartedAt: null,
      lastFinishedAt: null,
      lastError: null,
      updatedAt: 1000,
    };
    expect(await leases.ensure(db, 'cleanup', 1000)).toEqual(fresh);
    expect(await leases.ensure(db, 'cleanup', 5000)).toEqual(fresh);
    expect(await leases.find(db, 'cleanup')).toEqual(fresh);
    expect(await leases.find(db, 'nope')).toBeNull();
    await leases.ensure(db, 'backup', 2000);
    expect((await leases.list(db)).map((l) => l.name).sort()).toEqual(['backup', 'cleanup']);
  });

  it('claims a tick newer than the last one, once; never a past tick', async () => {
    await leases.ensure(db, 'ticks', 1000);
    expect(await claimTick('ticks', 'a', 1000, 1000)).toBe(false);
    expect(await claimTick('ticks', 'a', 2000, 2000, 3000)).toBe(true);
    expect(await leases.find(db, 'ticks')).toMatchObject({
      owner: 'a',
      expiresAt: 3000,
      lastTickAt: 2000,
      lastStartedAt: 2000,
    });
    expect(await claimTick('ticks', 'b', 2000, 2000)).toBe(false);
    expect(await claimTick('ticks', 'b', 1500, 2000)).toBe(false);
    expect(await claimTick('nobody-ensured-this', 'a', 2000, 2000)).toBe(false);
  });

  it('a held lease blocks newer ticks until it expires', async () => {
    await leases.ensure(db, 'held', 1000);
    await claimTick('held', 'a', 2000, 2000, 3000);
    expect(await claimTick('held', 'b', 2500, 2600)).toBe(false);
    expect(await claimTick('held', 'b', 2500, 3100, 4000)).toBe(true);
    expect(await leases.find(db, 'held')).toMatchObject({ owner: 'b', lastTickAt: 2500 });
  });

  it('renews and finishes only for the holder; finishing frees the lease and records the outcome', async () => {
    await leases.ensure(db, 'run', 1000);
    await claimTick('run', 'a', 2000, 2000, 3000);
    expect(await leases.renew(db, 'run', 'b', 9000, 2500)).toBe(false);
    expect(await leases.renew(db, 'run', 'a', 4000, 2500)).toBe(true);
    expect((await leases.find(db, 'run'))?.expiresAt).toBe(4000);
    expect(await leases.finish(db, 'run', 'b', 2600, null)).toBe(false);
    expect(await leases.finish(db, 'run', 'a', 2700, 'boom')).toBe(true);
    expect(await leases.find(db, 'run')).toMatchObject({
      owner: null,
      expiresAt: null,
      lastFinishedAt: 2700,
      lastError: 'boom',
      lastStartedAt: 2000,
    });
    expect(await leases.finish(db, 'run', 'a', 2800, null)).toBe(false);
    expect(await leases.renew(db, 'run', 'a', 5000, 2800)).toBe(false);
    expect(await claimTick('run', 'b', 2900, 2900)).toBe(true);
  });

  it('lets exactly one of several instances waking at once on separate connections claim a tick', async () => {
    await leases.ensure(db, 'raced', 1000);
    const claimed = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map((storage, i) =>
          storage.repositories.schedulerLeases.claimTick(storage.db, {
            name: 'raced',
            owner: `i${i}`,
            tick: 2000,
            now: 2000,
            expiresAt: 9000,
          }),
        ),
      ),
    );
    expect(claimed.filter(Boolean)).toHaveLength(1);
    expect((await leases.find(db, 'raced'))?.owner).toBe(`i${claimed.indexOf(true)}`);
  });
}
