import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { knexBackgroundJobRepository as jobs } from '../../src/storage/knex/background-jobs.js';
import { connectDatabase } from '../../src/storage/knex/connect.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { capturedLogger, manualClock, schedulerConfig, testScheduler, type ManualClock } from './scheduler-fixture.js';
import { txOf } from '../../src/storage/knex/on-knex.js';

describe.each(databaseKinds)('background jobs on %s', (kind) => {
  let t: TestDatabase;
  let clock: ManualClock;
  beforeEach(async () => {
    t = await createTestDatabase(kind);
    clock = manualClock();
  });
  afterEach(async () => {
    await t.destroy();
  });

  it('enqueue → pending → running → succeeded, with one log line per transition', async () => {
    const { logger, lines } = capturedLogger();
    const scheduler = testScheduler(t.tx, { clock, logger });
    const seen: unknown[] = [];
    scheduler.registerHandler('test.step', async (payload, context) => {
      seen.push({ payload, attempt: context.attempt, row: await jobs.findById(t.tx, context.jobId) });
      clock.advance(25);
    });
    const id = await scheduler.enqueue('test.step', { label: 'one' });
    expect(await jobs.findById(t.tx, id)).toMatchObject({
      state: 'pending',
      attempts: 0,
      maxAttempts: 3,
      runAt: clock.now(),
      payload: { label: 'one' },
    });

    const result = await scheduler.worker.runNext();
    expect(result?.outcome).toBe('succeeded');
    expect(seen).toEqual([
      {
        payload: { label: 'one' },
        attempt: 1,
        row: expect.objectContaining({
          state: 'running',
          leaseOwner: 'instance-a',
          attempts: 1,
          leaseExpiresAt: clock.now() - 25 + 60_000,
        }),
      },
    ]);
    expect(await jobs.findById(t.tx, id)).toMatchObject({
      state: 'succeeded',
      attempts: 1,
      finishedAt: clock.now(),
      leaseOwner: null,
      leaseExpiresAt: null,
      lastError: null,
    });
    expect(await scheduler.worker.runNext()).toBeNull();

    const transitions = lines
      .filter((l) => l.event === 'job.transition' && l.jobId === id)
      .map((l) => [l.from ?? null, l.to]);
    expect(transitions).toEqual([
      [null, 'pending'],
      [null, 'running'],
      ['running', 'succeeded'],
    ]);
    expect(lines.find((l) => l.to === 'succeeded')).toMatchObject({
      kind: 'test.step',
      attempt: 1,
      instanceId: 'instance-a',
      durationMs: 25,
    });
  });

  it('retries a failing handler after background_retry_delay_ms, counting attempts', async () => {
    const scheduler = testScheduler(t.tx, { clock });
    let calls = 0;
    scheduler.registerHandler('test.step', async () => {
      calls += 1;
      if (calls === 1) throw new Error('smtp unreachable');
    });
    const id = await scheduler.enqueue('test.step', { label: 'retry' });
    expect((await scheduler.worker.runNext())?.outcome).toBe('retry');
    const after = await jobs.findById(t.tx, id);
    expect(after).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastError: 'smtp unreachable',
      runAt: clock.now() + 1000,
      leaseOwner: null,
      finishedAt: null,
    });

    clock.advance(999);
    expect(await scheduler.worker.runNext()).toBeNull();
    clock.advance(1);
    expect((await scheduler.worker.runNext())?.outcome).toBe('succeeded');
    expect(await jobs.findById(t.tx, id)).toMatchObject({
      state: 'succeeded',
      attempts: 2,
      lastError: 'smtp unreachable',
    });
  });

  it('marks a job failed with its last error after background_max_attempts', async () => {
    const scheduler = testScheduler(t.tx, { clock, config: schedulerConfig({ backgroundMaxAttempts: 2 }) });
    let calls = 0;
    scheduler.registerHandler('test.step', async () => {
      calls += 1;
      throw new TypeError(`boom ${calls}`);
    });
    const id = await scheduler.enqueue('test.step', { label: 'fail' });
    expect((await scheduler.worker.runNext())?.outcome).toBe('retry');
    clock.advance(1000);
    expect((await scheduler.worker.runNext())?.outcome).toBe('failed');
    expect(await jobs.findById(t.tx, id)).toMatchObject({
      state: 'failed',
      attempts: 2,
      maxAttempts: 2,
      lastError: 'TypeError: boom 2',
      finishedAt: clock.now(),
    });
    clock.advance(60_000);
    expect(await scheduler.worker.runNext()).toBeNull();
    expect(calls).toBe(2);
  });

  it('does not run a job before its runAt, and honours a per-job maxAttempts', async () => {
    const scheduler = testScheduler(t.tx, { clock });
    scheduler.registerHandler('test.step', async () => {
      throw new Error('no');
    });
    const id = await scheduler.enqueue('test.step', { label: 'later' }, { runAt: clock.now() + 5000, maxAttempts: 1 });
    expect(await scheduler.worker.runNext()).toBeNull();
    clock.advance(5000);
    expect((await scheduler.worker.runNext())?.outcome).toBe('failed');
    expect(await jobs.findById(t.tx, id)).toMatchObject({ state: 'failed', attempts: 1, lastError: 'no' });
    await expect(scheduler.enqueue('test.step', { label: 'x' }, { maxAttempts: 0 })).rejects.toThrow(
      'maxAttempts must be an integer >= 1',
    );
  });

  it('leaves jobs of kinds this instance has no handler for pending', async () => {
    const scheduler = testScheduler(t.tx, { clock });
    const id = await scheduler.enqueue('test.step', { label: 'nobody' });
    expect(await scheduler.worker.runNext()).toBeNull();
    expect((await jobs.findById(t.tx, id))?.state).toBe('pending');
  });

  it('re-claims a running job whose lease expired (its worker died) and refuses the dead worker a late completion', async () => {
    const id = await testScheduler(t.tx, { clock }).enqueue('test.step', { label: 'orphan' });
    // Instance "dead" claims the job and then never renews its lease.
    const dead = await jobs.claim(t.tx, {
      owner: 'dead',
      now: clock.now(),
      leaseExpiresAt: clock.now() + 60_000,
      kinds: ['test.step'],
    });
    expect(dead).toMatchObject({ id, state: 'running', attempts: 1, leaseOwner: 'dead' });

    const survivor = testScheduler(t.tx, { clock, config: schedulerConfig({ instanceId: 'survivor' }) });
    survivor.registerHandler('test.step', async () => {});
    clock.advance(59_999);
    expect(await survivor.worker.runNext()).toBeNull();
    clock.advance(1);
    const result = await survivor.worker.runNext();
    expect(result?.outcome).toBe('succeeded');
    expect(result?.job).toMatchObject({ id, attempts: 2, leaseOwner: 'survivor', lastError: 'lease of dead expired' });

    // The dead worker wakes up and tries to record its outcome: every write is conditional on its lease.
    const lease = { id, owner: 'dead', attempt: 1 };
    expect(await jobs.markSucceeded(t.tx, lease, clock.now())).toBe(false);
    expect(await jobs.markFailed(t.tx, lease, clock.now(), 'late')).toBe(false);
    expect(await jobs.renewLease(t.tx, lease, clock.now(), clock.now() + 1)).toBe(false);
    expect(await jobs.findById(t.tx, id)).toMatchObject({ state: 'succeeded', attempts: 2 });
  });

  it('fails a job whose worker died on its last attempt instead of losing it', async () => {
    const { logger, lines } = capturedLogger();
    const scheduler = testScheduler(t.tx, { clock, logger, config: schedulerConfig({ backgroundMaxAttempts: 1 }) });
    scheduler.registerHandler('test.step', async () => {});
    const id = await scheduler.enqueue('test.step', { label: 'last' });
    await jobs.claim(t.tx, {
      owner: 'dead',
      now: clock.now(),
      leaseExpiresAt: clock.now() + 1000,
      kinds: ['test.step'],
    });
    clock.advance(1000);
    expect(await scheduler.worker.runNext()).toBeNull();
    expect(await jobs.findById(t.tx, id)).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: 'lease of dead expired on the last attempt',
      finishedAt: clock.now(),
    });
    expect(lines.find((l) => l.jobId === id && l.to === 'failed')).toMatchObject({ from: 'running', level: 40 });
  });

  it('a worker whose lease was taken over discards its outcome (lease_lost)', async () => {
    const slow = testScheduler(t.tx, { clock, config: schedulerConfig({ instanceId: 'slow', lockTtlMs: 1000 }) });
    const other = testScheduler(t.tx, { clock, config: schedulerConfig({ instanceId: 'other', lockTtlMs: 1000 }) });
    other.registerHandler('test.step', async () => {});
    const id = await slow.enqueue('test.step', { label: 'contested' });
    slow.registerHandler('test.step', async () => {
      // The slow worker stalls past its lease (its heartbeat cannot run: the clock jumps), and another instance takes the job over.
      clock.advance(1000);
      expect((await other.worker.runNext())?.outcome).toBe('succeeded');
      throw new Error('slow failure');
    });
    expect((await slow.worker.runNext())?.outcome).toBe('lease_lost');
    expect(await jobs.findById(t.tx, id)).toMatchObject({
      state: 'succeeded',
      attempts: 2,
      lastError: 'lease of slow expired',
    });
  });

  it('graceful shutdown lets a running job finish', async () => {
    const scheduler = testScheduler(t.tx, { concurrency: 1 });
    let finished = false;
    scheduler.registerHandler('test.step', async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      finished = true;
    });
    const id = await scheduler.enqueue('test.step', { label: 'finish' });
    scheduler.worker.start();
    await waitFor(async () => (await jobs.findById(t.tx, id))?.state === 'running');
    await scheduler.worker.stop({ graceMs: 5000 });
    expect(finished).toBe(true);
    expect((await jobs.findById(t.tx, id))?.state).toBe('succeeded');
  });

  it('graceful shutdown releases the lease of a job that does not finish in time, without counting the attempt', async () => {
    const scheduler = testScheduler(t.tx, { concurrency: 1 });
    let aborted = false;
    scheduler.registerHandler(
      'test.step',
      (_payload, { signal }) =>
        new Promise<void>((_, reject) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          }),
        ),
    );
    const id = await scheduler.enqueue('test.step', { label: 'hang' });
    scheduler.worker.start();
    await waitFor(async () => (await jobs.findById(t.tx, id))?.state === 'running');
    await scheduler.worker.stop({ graceMs: 100 });
    expect(aborted).toBe(true);
    expect(await jobs.findById(t.tx, id)).toMatchObject({ state: 'pending', attempts: 0, leaseOwner: null });
    // Claiming has stopped: nothing picks it up again in this process.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await jobs.findById(t.tx, id))?.state).toBe('pending');
  });

  it('the heartbeat keeps the lease of a job running past lock_ttl_ms', async () => {
    const scheduler = testScheduler(t.tx, { config: schedulerConfig({ lockTtlMs: 300 }), concurrency: 1 });
    const rival = testScheduler(t.tx, { config: schedulerConfig({ lockTtlMs: 300, instanceId: 'rival' }) });
    let runs = 0;
    const handler = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    };
    scheduler.registerHandler('test.step', handler);
    rival.registerHandler('test.step', handler);
    const id = await scheduler.enqueue('test.step', { label: 'long' });
    const first = scheduler.worker.runNext();
    await waitFor(async () => (await jobs.findById(t.tx, id))?.state === 'running');
    for (let i = 0; i < 5; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await rival.worker.runNext()).toBeNull();
    }
    expect((await first)?.outcome).toBe('succeeded');
    expect(runs).toBe(1);
    expect(await jobs.findById(t.tx, id)).toMatchObject({ state: 'succeeded', attempts: 1 });
  });

  it('concurrent claimers on separate connections never get the same job', async () => {
    const scheduler = testScheduler(t.tx, { clock });
    for (let i = 0; i < 60; i += 1) await scheduler.enqueue('test.step', { label: `j${i}` });
    const connections = [t.db, ...Array.from({ length: 3 }, () => connectDatabase(t.config))];
    try {
      const claimed: string[] = [];
      await Promise.all(
        connections.map(async (db, n) => {
          for (;;) {
            const job = await jobs.claim(txOf(db), {
              owner: `claimer-${n}`,
              now: clock.now(),
              leaseExpiresAt: clock.now() + 60_000,
              kinds: ['test.step'],
            });
            if (!job) return;
            claimed.push(job.id);
          }
        }),
      );
      expect(claimed).toHaveLength(60);
      expect(new Set(claimed).size).toBe(60);
      expect(await jobs.countByState(t.tx)).toEqual({ pending: 0, running: 60, succeeded: 0, failed: 0 });
    } finally {
      await Promise.all(connections.slice(1).map((db) => db.destroy()));
    }
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
