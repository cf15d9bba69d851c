import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { BackgroundJobRepository, Tx } from '../../../src/storage/repositories.js';
import type { BackgroundJobRecord, JobLease } from '../../../src/model/index.js';
import { cleanTables, racers, withStorages, type Subject } from './subject.js';

function job(id: string, overrides: Partial<BackgroundJobRecord> = {}): BackgroundJobRecord {
  return {
    id,
    kind: 'email',
    payload: { to: 'a@example.com', retries: [1, 2] },
    state: 'pending',
    attempts: 0,
    maxAttempts: 3,
    runAt: 1000,
    leaseOwner: null,
    leaseExpiresAt: null,
    lastError: null,
    createdAt: 1000,
    updatedAt: 1000,
    finishedAt: null,
    ...overrides,
  };
}

const leaseOf = (claimed: BackgroundJobRecord | null): JobLease => ({
  id: claimed!.id,
  owner: claimed!.leaseOwner!,
  attempt: claimed!.attempts,
});

export function describeBackgroundJobs(s: Subject): void {
  let jobs: BackgroundJobRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { backgroundJobs: jobs },
    } = s);
  });
  beforeEach(() => cleanTables(s.database.db, ['background_jobs']));

  const claim = (owner: string, now: number, leaseExpiresAt = now + 1000, kinds = ['email']) =>
    jobs.claim(db, { owner, now, leaseExpiresAt, kinds });
  const stateOf = async (id: string) => (await jobs.findById(db, id))?.state;

  it('round-trips a job, its payload parsed', async () => {
    await jobs.insert(db, job('j1'));
    expect(await jobs.findById(db, 'j1')).toEqual(job('j1'));
    expect(await jobs.findById(db, 'nope')).toBeNull();
  });

  it('lists newest first, filtered by state, up to the limit; counts every state, zeros included', async () => {
    expect(await jobs.countByState(db)).toEqual({ pending: 0, running: 0, succeeded: 0, failed: 0 });
    await jobs.insert(db, job('a', { createdAt: 1000 }));
    await jobs.insert(db, job('b', { createdAt: 2000, state: 'succeeded', finishedAt: 2500 }));
    await jobs.insert(db, job('c', { createdAt: 3000 }));
    expect((await jobs.list(db, { limit: 10 })).map((j) => j.id)).toEqual(['c', 'b', 'a']);
    expect((await jobs.list(db, { state: 'pending', limit: 10 })).map((j) => j.id)).toEqual(['c', 'a']);
    expect((await jobs.list(db, { limit: 1 })).map((j) => j.id)).toEqual(['c']);
    expect(await jobs.countByState(db)).toEqual({ pending: 2, running: 0, succeeded: 1, failed: 0 });
  });

  it('claims the oldest due pending job of the asked kinds, running under the owner with one more attempt', async () => {
    await jobs.insert(db, job('future', { runAt: 5000 }));
    await jobs.insert(db, job('other-kind', { kind: 'report', runAt: 100 }));
    await jobs.insert(db, job('late', { runAt: 2000 }));
    await jobs.insert(db, job('early', { runAt: 1500 }));
    expect(await claim('w1', 3000, 4000, [])).toBeNull();
    expect(await claim('w1', 3000, 4000)).toEqual(
      job('early', {
        runAt: 1500,
        state: 'running',
        leaseOwner: 'w1',
        leaseExpiresAt: 4000,
        attempts: 1,
        updatedAt: 3000,
      }),
    );
    expect((await claim('w1', 3000))?.id).toBe('late');
    expect(await claim('w1', 3000)).toBeNull();
    expect((await claim('w1', 3000, 4000, ['report']))?.id).toBe('other-kind');
  });

  it('reclaims a running job whose lease expired while it has attempts left; fails it once they are spent', async () => {
    await jobs.insert(db, job('j', { maxAttempts: 2 }));
    expect((await claim('w1', 1000, 2000))?.attempts).toBe(1);
    expect(await claim('w2', 1500, 2500)).toBeNull();
    expect(await claim('w2', 2500, 3000)).toMatchObject({
      id: 'j',
      leaseOwner: 'w2',
      attempts: 2,
      leaseExpiresAt: 3000,
    });
    expect(await jobs.failExpiredExhausted(db, 2900)).toEqual([]);
    expect(await claim('w3', 3500)).toBeNull();
    // Beside it: one whose lease expires with attempts left, one exhausted whose lease is still live.
    await jobs.insert(db, job('spare', { runAt: 4000, maxAttempts: 3 }));
    await jobs.insert(db, job('live-lease', { runAt: 4001, maxAttempts: 1 }));
    expect((await claim('w4', 4001, 5000))?.id).toBe('spare');
    expect((await claim('w5', 4001, 99_000))?.id).toBe('live-lease');
    const failed = await jobs.failExpiredExhausted(db, 9500);
    expect(failed).toEqual([
      expect.objectContaining({ id: 'j', state: 'failed', finishedAt: 9500, leaseOwner: null, leaseExpiresAt: null }),
    ]);
    expect(await jobs.findById(db, 'j')).toEqual(failed[0]);
    expect([await stateOf('spare'), await stateOf('live-lease')]).toEqual(['running', 'running']);
    expect(await jobs.failExpiredExhausted(db, 9500)).toEqual([]);
  });

  it('renews and completes a job only while the lease is ours', async () => {
    await jobs.insert(db, job('j'));
    const lease = leaseOf(await claim('w1', 1000, 2000));
    expect(await jobs.renewLease(db, { ...lease, owner: 'w2' }, 1500, 3000)).toBe(false);
    expect(await jobs.renewLease(db, { ...lease, attempt: 2 }, 1500, 3000)).toBe(false);
    expect(await jobs.renewLease(db, lease, 1500, 3000)).toBe(true);
    expect((await jobs.findById(db, 'j'))?.leaseExpiresAt).toBe(3000);
    expect(await jobs.markSucceeded(db, lease, 1600)).toBe(true);
    expect(await jobs.findById(db, 'j')).toMatchObject({
      state: 'succeeded',
      finishedAt: 1600,
      leaseOwner: null,
      leaseExpiresAt: null,
      attempts: 1,
    });
    expect(await jobs.markSucceeded(db, lease, 1700)).toBe(false);
    expect(await jobs.renewLease(db, lease, 1700, 4000)).toBe(false);
  });

  it('refuses every transition to the holder of a lease that was re-claimed', async () => {
    await jobs.insert(db, job('j'));
    const stale = leaseOf(await claim('w1', 1000, 2000));
    const current = leaseOf(await claim('w2', 2500, 3500));
    expect([
      await jobs.renewLease(db, stale, 2600, 5000),
      await jobs.markSucceeded(db, stale, 2600),
      await jobs.markRetry(db, stale, 2600, 2700, 'x'),
      await jobs.markFailed(db, stale, 2600, 'x'),
      await jobs.release(db, stale, 2600),
    ]).toEqual([false, false, false, false, false]);
    expect(await jobs.findById(db, 'j')).toMatchObject({
      state: 'running',
      leaseOwner: 'w2',
      attempts: current.attempt,
      leaseExpiresAt: 3500,
    });
  });

  it('retries a job at runAt with the error, fails it for good, and releases one without counting the attempt', async () => {
    await jobs.insert(db, job('j'));
    expect(await jobs.markRetry(db, leaseOf(await claim('w1', 1000)), 1100, 5000, 'smtp down')).toBe(true);
    expect(await jobs.findById(db, 'j')).toMatchObject({
      state: 'pending',
      runAt: 5000,
      lastError: 'smtp down',
      attempts: 1,
      leaseOwner: null,
      finishedAt: null,
    });
    expect(await claim('w1', 4999)).toBeNull();
    expect(await jobs.markFailed(db, leaseOf(await claim('w1', 5000)), 5100, 'bounced')).toBe(true);
    expect(await jobs.findById(db, 'j')).toMatchObject({
      state: 'failed',
      lastError: 'bounced',
      attempts: 2,
      finishedAt: 5100,
      leaseOwner: null,
    });

    await jobs.insert(db, job('k', { attempts: 1 }));
    expect(await jobs.release(db, leaseOf(await claim('w1', 6000)), 6100)).toBe(true);
    expect(await jobs.findById(db, 'k')).toMatchObject({
      state: 'pending',
      attempts: 1,
      runAt: 6100,
      leaseOwner: null,
      leaseExpiresAt: null,
    });
  });

  it('deletes terminal jobs finished before a time, up to the limit, never pending or running ones', async () => {
    await jobs.insert(db, job('s1', { state: 'succeeded', finishedAt: 100 }));
    await jobs.insert(db, job('f1', { state: 'failed', finishedAt: 200 }));
    await jobs.insert(db, job('s2', { state: 'succeeded', finishedAt: 300 }));
    await jobs.insert(db, job('recent', { state: 'succeeded', finishedAt: 5000 }));
    // A finished_at left on a job that runs again must not make it deletable.
    await jobs.insert(db, job('pending', { finishedAt: 50 }));
    await jobs.insert(
      db,
      job('running', { state: 'running', leaseOwner: 'w', leaseExpiresAt: 9000, attempts: 1, finishedAt: 50 }),
    );
    expect(await jobs.deleteTerminalBefore(db, 1000, 2)).toBe(2);
    expect(await jobs.deleteTerminalBefore(db, 1000, 2)).toBe(1);
    expect(await jobs.deleteTerminalBefore(db, 1000, 2)).toBe(0);
    expect((await jobs.list(db, { limit: 10 })).map((j) => j.id).sort()).toEqual(['pending', 'recent', 'running']);
  });

  it('never hands one job to two of several claimers on separate connections', async () => {
    const count = 12;
    for (let i = 0; i < count; i++) await jobs.insert(db, job(`q${String(i).padStart(2, '0')}`, { runAt: 1000 + i }));
    const claimed = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map(async (storage, i) => {
          const mine: string[] = [];
          for (;;) {
            const next = await storage.repositories.backgroundJobs.claim(storage.db, {
              owner: `w${i}`,
              now: 5000,
              leaseExpiresAt: 9000,
              kinds: ['email'],
            });
            if (!next) return mine;
            mine.push(next.id);
          }
        }),
      ),
    );
    const all = claimed.flat();
    expect(all.length).toBe(count);
    expect(new Set(all).size).toBe(count);
    expect(await jobs.countByState(db)).toEqual({ pending: 0, running: count, succeeded: 0, failed: 0 });
  });
}
