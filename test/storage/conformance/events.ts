import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { NewEventRecord } from '../../../src/model/index.js';
import type { EventRepository, Tx } from '../../../src/storage/repositories.js';
import { knexOf } from '../../../src/storage/knex/on-knex.js';
import { cleanTables, type Subject } from './subject.js';

const event = (overrides: Partial<NewEventRecord> = {}): NewEventRecord => ({
  time: 1_000,
  type: 'sign_in.succeeded',
  actor: 'user-1',
  subject: 'user-1',
  clientAddress: '127.0.0.1',
  clientId: null,
  detail: {},
  ...overrides,
});

export function describeEvents(s: Subject): void {
  let events: EventRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { events },
    } = s);
  });
  beforeEach(() => cleanTables(knexOf(s.db), ['events']));

  it('appends and reads back every field, the detail as JSON', async () => {
    await events.append(
      db,
      event({
        clientId: 'app',
        detail: { plan: { a: 1 } as never, factors: ['pwd', 'otp'], ok: true, n: 3, none: null },
      }),
    );
    const { events: listed, total } = await events.list(db, { page: 1, pageSize: 10 });
    expect(total).toBe(1);
    expect(listed[0]).toEqual({
      id: expect.any(Number),
      ...event({
        clientId: 'app',
        detail: { plan: { a: 1 } as never, factors: ['pwd', 'otp'], ok: true, n: 3, none: null },
      }),
    });
  });

  it('lists newest first (time, then id), pages, and filters by type, actor, subject and a half-open time range', async () => {
    await events.append(db, event({ time: 100, type: 'sign_in.failed', actor: 'a', subject: 'x' }));
    await events.append(db, event({ time: 200, type: 'sign_in.succeeded', actor: 'a', subject: 'y' }));
    await events.append(db, event({ time: 200, type: 'sign_out', actor: 'b', subject: 'y' }));
    await events.append(db, event({ time: 300, type: 'config.applied', actor: 'config', subject: null }));

    const all = await events.list(db, { page: 1, pageSize: 10 });
    expect(all.events.map((e) => e.type)).toEqual([
      'config.applied',
      'sign_out',
      'sign_in.succeeded',
      'sign_in.failed',
    ]);
    const second = await events.list(db, { page: 2, pageSize: 3 });
    expect(second).toMatchObject({ total: 4, events: [{ type: 'sign_in.failed' }] });
    expect((await events.list(db, { type: 'sign_out', page: 1, pageSize: 10 })).events.map((e) => e.actor)).toEqual([
      'b',
    ]);
    expect((await events.list(db, { actor: 'a', page: 1, pageSize: 10 })).total).toBe(2);
    expect((await events.list(db, { subject: 'y', page: 1, pageSize: 10 })).total).toBe(2);
    const range = await events.list(db, { since: 200, until: 300, page: 1, pageSize: 10 });
    expect(range.events.map((e) => e.time)).toEqual([200, 200]);
    expect((await events.list(db, { actor: 'nobody', page: 1, pageSize: 10 })).events).toEqual([]);
  });

  it('appends many events in their order, in batches, and nothing for none', async () => {
    await events.appendMany(db, []);
    const many = Array.from({ length: 1200 }, (_, i) =>
      event({ time: 5, type: 'group.member_added', actor: 'apply', subject: `u-${i}`, detail: { group: 'sre' } }),
    );
    await events.appendMany(db, many);
    const { events: newest, total } = await events.list(db, { page: 1, pageSize: 2 });
    expect(total).toBe(1200);
    expect(newest).toEqual([
      { id: expect.any(Number), ...many[1199] },
      { id: expect.any(Number), ...many[1198] },
    ]);
  });

  it('counts the events of a type per UTC day of a day-aligned range, one key per day that has any', async () => {
    const day = 86_400_000;
    const start = 20_000 * day;
    await events.appendMany(db, [
      event({ time: start - 1 }),
      event({ time: start }),
      event({ time: start + day - 1 }),
      event({ time: start + day - 1, type: 'sign_in.failed' }),
      event({ time: start + 2 * day + 5 }),
      event({ time: start + 2 * day + 6 }),
      event({ time: start + 2 * day + 7 }),
      event({ time: start + 3 * day }),
    ]);
    const counts = await events.countPerDay(db, { type: 'sign_in.succeeded', since: start, until: start + 3 * day });
    expect([...counts].sort(([a], [b]) => a - b)).toEqual([
      [start, 2],
      [start + 2 * day, 3],
    ]);
    expect(await events.countPerDay(db, { type: 'user.imported', since: start, until: start + 3 * day })).toEqual(
      new Map(),
    );
  });

  it('deleteBefore removes old events in bounded batches', async () => {
    for (const time of [1, 2, 3, 10]) await events.append(db, event({ time }));
    expect(await events.deleteBefore(db, 5, 2)).toBe(2);
    expect(await events.deleteBefore(db, 5, 2)).toBe(1);
    expect(await events.deleteBefore(db, 5, 2)).toBe(0);
    expect((await events.list(db, { page: 1, pageSize: 10 })).events.map((e) => e.time)).toEqual([10]);
  });

  it('an event appended in a transaction that rolls back is gone, and its after-commit effect never runs', async () => {
    const effects: string[] = [];
    await expect(
      s.storage.transaction(async (tx) => {
        await events.append(tx, event({ actor: 'rolled-back' }));
        s.storage.afterCommit(tx, () => effects.push('rolled-back'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await s.storage.transaction(async (tx) => {
      await events.append(tx, event({ actor: 'committed' }));
      s.storage.afterCommit(tx, () => effects.push('committed'));
      expect(effects).toEqual([]);
    });
    await new Promise((resolve) => setImmediate(resolve));
    s.storage.afterCommit(db, () => effects.push('autocommit'));
    expect(effects).toEqual(['committed', 'autocommit']);
    expect((await events.list(db, { page: 1, pageSize: 10 })).events.map((e) => e.actor)).toEqual(['committed']);
  });
}
