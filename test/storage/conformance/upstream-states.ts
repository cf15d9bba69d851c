import { beforeAll, expect, it } from 'vitest';
import type { Tx, UpstreamStateRepository } from '../../../src/storage/repositories.js';
import type { UpstreamStateRecord } from '../../../src/model/index.js';
import { racers, withStorages, type Subject } from './subject.js';
import { onlyExpired } from './garbage.js';

function state(stateHash: string, overrides: Partial<UpstreamStateRecord> = {}): UpstreamStateRecord {
  return {
    stateHash,
    providerId: 'github',
    bindingHash: 'b'.repeat(43),
    intent: 'login',
    returnTo: '/oauth2/authorize?client_id=web',
    linkSub: null,
    createdAt: 1000,
    expiresAt: 601_000,
    consumedAt: null,
    ...overrides,
  };
}

const key = (stateHash: string) => ({ stateHash, bindingHash: 'b'.repeat(43) });

export function describeUpstreamStates(s: Subject): void {
  let states: UpstreamStateRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { upstreamStates: states },
    } = s);
  });

  it('stores a state and gives it back, field for field, on first redemption with its binding; later ones see it consumed', async () => {
    await states.insert(db, state('s1', { intent: 'link', linkSub: 'alice', returnTo: '/account' }));
    expect(await states.consume(db, { stateHash: 's1', bindingHash: 'c'.repeat(43) }, 4000)).toBeNull();
    expect(await states.consume(db, key('s1'), 5000)).toEqual({
      record: state('s1', { intent: 'link', linkSub: 'alice', returnTo: '/account', consumedAt: 5000 }),
      alreadyConsumed: false,
    });
    expect(await states.consume(db, key('s1'), 6000)).toEqual({
      record: state('s1', { intent: 'link', linkSub: 'alice', returnTo: '/account', consumedAt: 5000 }),
      alreadyConsumed: true,
    });
    expect(await states.consume(db, key('unknown'), 6000)).toBeNull();
  });

  it('lets exactly one redemption win across separate connections', async () => {
    await states.insert(db, state('race'));
    const results = await withStorages(s, racers, (storages) =>
      Promise.all(
        storages.map((storage, i) => storage.repositories.upstreamStates.consume(storage.db, key('race'), 10_000 + i)),
      ),
    );
    expect(results.filter((r) => r?.alreadyConsumed === false)).toHaveLength(1);
  });

  it('is removed by the cleanup once expired', async () => {
    await states.insert(db, state('old', { expiresAt: 100 }));
    await states.insert(db, state('fresh', { expiresAt: 10_000_000 }));
    expect((await s.storage.collectGarbage(200, onlyExpired)).upstream_states).toBe(1);
    expect(await states.consume(db, key('old'), 300)).toBeNull();
    expect(await states.consume(db, key('fresh'), 300)).not.toBeNull();
  });
}
