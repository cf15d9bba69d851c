import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { TermAcceptanceRepository, Tx } from '../../../src/storage/repositories.js';
import { cleanTables, type Subject } from './subject.js';
import { userRecord } from './records.js';

export function describeTermAcceptances(s: Subject): void {
  let acceptances: TermAcceptanceRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { termAcceptances: acceptances },
    } = s);
  });
  beforeEach(async () => {
    await cleanTables(s.database.db, ['term_acceptances', 'users']);
    await s.repositories.users.insertMany(db, [userRecord('alice'), userRecord('bob')]);
  });

  it("records acceptances and lists a user's history, oldest first", async () => {
    await acceptances.record(db, [
      { sub: 'alice', termId: 'tos', version: '2', acceptedAt: 300 },
      { sub: 'alice', termId: 'privacy', version: '1', acceptedAt: 100 },
      { sub: 'bob', termId: 'tos', version: '1', acceptedAt: 50 },
    ]);
    await acceptances.record(db, [{ sub: 'alice', termId: 'tos', version: '1', acceptedAt: 100 }]);
    await acceptances.record(db, []);
    expect(await acceptances.listBySub(db, 'alice')).toEqual([
      { sub: 'alice', termId: 'privacy', version: '1', acceptedAt: 100 },
      { sub: 'alice', termId: 'tos', version: '1', acceptedAt: 100 },
      { sub: 'alice', termId: 'tos', version: '2', acceptedAt: 300 },
    ]);
    expect(await acceptances.listBySub(db, 'nobody')).toEqual([]);
  });

  it('never overwrites history: accepting a recorded version again keeps the first time', async () => {
    await acceptances.record(db, [{ sub: 'alice', termId: 'tos', version: '1', acceptedAt: 100 }]);
    await acceptances.record(db, [
      { sub: 'alice', termId: 'tos', version: '1', acceptedAt: 999 },
      { sub: 'alice', termId: 'tos', version: '2', acceptedAt: 1_000 },
    ]);
    expect(await acceptances.listBySub(db, 'alice')).toEqual([
      { sub: 'alice', termId: 'tos', version: '1', acceptedAt: 100 },
      { sub: 'alice', termId: 'tos', version: '2', acceptedAt: 1_000 },
    ]);
  });

  it('goes with its user', async () => {
    await acceptances.record(db, [{ sub: 'bob', termId: 'tos', version: '1', acceptedAt: 1 }]);
    await s.database.db('users').where({ sub: 'bob' }).delete();
    expect(await acceptances.listBySub(db, 'bob')).toEqual([]);
  });

  it('counts, per term version, the live users who accepted it and the live users in all', async () => {
    await s.repositories.users.insertMany(db, [{ ...userRecord('carol'), deletedAt: 5 }]);
    await acceptances.record(db, [
      { sub: 'alice', termId: 'tos', version: '2', acceptedAt: 1 },
      { sub: 'bob', termId: 'tos', version: '1', acceptedAt: 1 },
      { sub: 'carol', termId: 'tos', version: '2', acceptedAt: 1 },
    ]);
    expect(
      await acceptances.countLive(db, [
        { termId: 'tos', version: '2' },
        { termId: 'tos', version: '1' },
        { termId: 'privacy', version: '1' },
      ]),
    ).toEqual({
      accepted: [1, 1, 0],
      liveUsers: 2,
    });
    expect(await acceptances.countLive(db, [])).toEqual({ accepted: [], liveUsers: 2 });
  });
}
