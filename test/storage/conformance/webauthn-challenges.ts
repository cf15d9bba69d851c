import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { Tx, WebAuthnChallengeRepository } from '../../../src/storage/repositories.js';
import type { WebAuthnChallengeRecord } from '../../../src/model/index.js';
import { cleanTables, racers, withStorages, type Subject } from './subject.js';
import { onlyExpired } from './garbage.js';

function challenge(value: string, overrides: Partial<WebAuthnChallengeRecord> = {}): WebAuthnChallengeRecord {
  return {
    challenge: value,
    purpose: 'registration',
    sub: 'alice',
    sessionId: 'session-hash',
    expiresAt: 301_000,
    createdAt: 1000,
    ...overrides,
  };
}

export function describeWebAuthnChallenges(s: Subject): void {
  let challenges: WebAuthnChallengeRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { webauthnChallenges: challenges },
    } = s);
  });
  beforeEach(() => cleanTables(s.database.db, ['webauthn_challenges']));

  it('gives a challenge back once, field for field, and then never', async () => {
    await challenges.insert(db, challenge('c1'));
    await challenges.insert(db, challenge('c2', { purpose: 'authentication', sub: null, sessionId: null }));
    expect(await challenges.consume(db, 'c1')).toEqual(challenge('c1'));
    expect(await challenges.consume(db, 'c1')).toBeNull();
    expect(await challenges.consume(db, 'c2')).toEqual(
      challenge('c2', { purpose: 'authentication', sub: null, sessionId: null }),
    );
    expect(await challenges.consume(db, 'unknown')).toBeNull();
  });

  it('lets exactly one of concurrent consumers have it, across separate connections', async () => {
    await challenges.insert(db, challenge('race'));
    const results = await withStorages(s, racers, (storages) =>
      Promise.all(storages.map((storage) => storage.repositories.webauthnChallenges.consume(storage.db, 'race'))),
    );
    expect(results.filter((r) => r !== null)).toEqual([challenge('race')]);
  });

  it('leaves expired challenges to the cleanup of expires_at', async () => {
    await challenges.insert(db, challenge('old', { expiresAt: 100 }));
    await challenges.insert(db, challenge('fresh', { expiresAt: 900 }));
    expect((await s.storage.collectGarbage(500, onlyExpired)).webauthn_challenges).toBe(1);
    expect(await challenges.consume(db, 'old')).toBeNull();
    expect(await challenges.consume(db, 'fresh')).not.toBeNull();
  });
}
