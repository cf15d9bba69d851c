import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminOverview, overviewDays } from '../../src/admin/admin-overview.js';
import type { NewEventRecord } from '../../src/model/index.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { userRecord } from '../storage/conformance/records.js';

const day = 86_400_000;
/** Noon of a UTC day, so that the Overview's today starts 12 hours earlier. */
const now = 20_500 * day + 12 * 3_600_000;
const today = 20_500 * day;

const signIn = (time: number, type: NewEventRecord['type'] = 'sign_in.succeeded'): NewEventRecord => ({
  time,
  type,
  actor: 'someone',
  subject: 'someone',
  clientAddress: null,
  clientId: null,
  detail: {},
});

describe.each(databaseKinds)('the console Overview on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t.destroy());

  it('charts the sign-ins of each UTC day of the last 30, today last, and counts the failed ones', async () => {
    const { events } = t.storage.repositories;
    await events.appendMany(t.tx, [
      // The day before the chart begins: not shown.
      signIn(today - overviewDays * day + day - 1),
      signIn(today - (overviewDays - 1) * day),
      signIn(today - 3 * day + 5),
      signIn(today - 3 * day + day - 1),
      signIn(today),
      signIn(now),
      signIn(now, 'sign_in.failed'),
      signIn(today - 40 * day, 'sign_in.failed'),
    ]);
    const overview = createAdminOverview({
      db: t.tx,
      events,
      sessions: t.storage.repositories.sessions,
      clock: { now: () => now },
    });
    const caller = userRecord('root', { role: 'admin' });
    const { signInsPerDay, failedSignIns } = await overview.overview(caller);
    expect(signInsPerDay).toHaveLength(overviewDays);
    expect(signInsPerDay[0]).toEqual({
      day: new Date(today - (overviewDays - 1) * day).toISOString().slice(0, 10),
      count: 1,
    });
    expect(signInsPerDay.at(-4)).toEqual({ day: new Date(today - 3 * day).toISOString().slice(0, 10), count: 2 });
    expect(signInsPerDay.at(-1)).toEqual({ day: new Date(today).toISOString().slice(0, 10), count: 2 });
    expect(signInsPerDay.reduce((sum, d) => sum + d.count, 0)).toBe(5);
    expect(failedSignIns).toBe(1);
  });
});
