import { beforeAll, expect, it } from 'vitest';
import type { ClientChangeProbe, ClientRepository, Tx } from '../../../src/storage/repositories.js';
import type { Subject } from './subject.js';
import { clientRecord } from './records.js';

export function describeClientProbe(s: Subject): void {
  let probe: ClientChangeProbe;
  let clients: ClientRepository;
  let db: Tx;
  beforeAll(() => {
    ({
      db,
      repositories: { clientProbe: probe, clients },
    } = s);
  });

  it('keeps its fingerprint while nothing changes, and changes on insert, update and delete', async () => {
    const seen = [await probe.fingerprint(db)];
    expect(await probe.fingerprint(db)).toBe(seen[0]);
    await clients.insertMany(db, [clientRecord('a', { updatedAt: 1000 })]);
    seen.push(await probe.fingerprint(db));
    await clients.insertMany(db, [clientRecord('b', { updatedAt: 1000 })]);
    seen.push(await probe.fingerprint(db));
    await clients.update(db, 'a', { name: 'A', updatedAt: 2000 });
    seen.push(await probe.fingerprint(db));
    expect(await probe.fingerprint(db)).toBe(seen[3]);
    await clients.deleteMany(db, ['b']);
    seen.push(await probe.fingerprint(db));
    expect(new Set(seen).size).toBe(seen.length);
  });
}
