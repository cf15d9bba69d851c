import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createEventLog } from '../../src/events/index.js';
import type { NewEventRecord } from '../../src/model/index.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';

/** The event log's `onCommitted` listener (the metrics' sign-in counters) hears what committed, and only that. */
describe.each(databaseKinds)('createEventLog onCommitted on %s', (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });

  it('hears committed events, without a logger, and never those of a unit of work that rolled back', async () => {
    database = await createTestDatabase(kind);
    const { storage } = database;
    const heard: NewEventRecord[] = [];
    const events = createEventLog({ storage, clock: systemClock, onCommitted: (batch) => heard.push(...batch) });

    await events.record(storage.db, { type: 'sign_out', actor: 'u1' });
    await expect(
      storage.transaction(async (tx) => {
        await events.record(tx, { type: 'sign_in.succeeded', actor: 'u2', detail: { amr: ['pwd'] } });
        expect(heard.map((e) => e.actor)).toEqual(['u1']);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await storage.transaction((tx) =>
      events.recordMany(tx, [
        { type: 'group.member_added', actor: 'apply', subject: 'u3' },
        { type: 'group.member_added', actor: 'apply', subject: 'u4' },
      ]),
    );
    expect(heard.map((e) => [e.type, e.actor, e.subject])).toEqual([
      ['sign_out', 'u1', null],
      ['group.member_added', 'apply', 'u3'],
      ['group.member_added', 'apply', 'u4'],
    ]);
  });
});
