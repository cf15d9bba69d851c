import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { openStorage } from '../../../src/app.js';
import type { DatabaseConfig } from '../../../src/config/types.js';
import { withStorages, type Subject } from './subject.js';

/** The same kind of database, somewhere that does not exist. */
function unreachable(config: DatabaseConfig): DatabaseConfig {
  const missing = `idp_missing_${randomBytes(4).toString('hex')}`;
  if (config.client === 'sqlite') return { ...config, filename: path.join(os.tmpdir(), missing, 'idp.sqlite') };
  const url = new URL(config.url!);
  url.pathname = `/${missing}`;
  return { ...config, url: url.toString() };
}

/** The Storage object itself: its engine, units of work, apply lock and the database's life. */
export function describeStorage(s: Subject): void {
  it('names its engine', () => {
    expect(s.storage.engine).toBe(s.kind);
  });

  it('commits a transaction when the work resolves, and hands back its result', async () => {
    const result = await s.storage.transaction(async (tx) => {
      await s.repositories.settings.set(tx, 'tx.commit', 'kept', 1);
      return 42;
    });
    expect(result).toBe(42);
    expect(await s.repositories.settings.get(s.db, 'tx.commit')).toBe('kept');
  });

  it('rolls a transaction back when the work throws, and rethrows', async () => {
    const failing = s.storage.transaction(async (tx) => {
      await s.repositories.settings.set(tx, 'tx.rollback', 'lost', 1);
      expect(await s.repositories.settings.get(tx, 'tx.rollback')).toBe('lost');
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    expect(await s.repositories.settings.get(s.db, 'tx.rollback')).toBeNull();
  });

  it('keeps uncommitted writes from other connections', async () => {
    await withStorages(s, 1, async ([other]) => {
      await s.storage.transaction(async (tx) => {
        await s.repositories.settings.set(tx, 'tx.isolated', 'pending', 1);
        expect(await other.repositories.settings.get(other.db, 'tx.isolated')).toBeNull();
      });
      expect(await other.repositories.settings.get(other.db, 'tx.isolated')).toBe('pending');
    });
  });

  it('takeApplyLock serialises two transactions: the second waits, then reads what the first committed', async () => {
    await withStorages(s, 2, async ([a, b]) => {
      const events: string[] = [];
      let letAFinish!: () => void;
      const aMayFinish = new Promise<void>((resolve) => (letAFinish = resolve));
      let aLocked!: () => void;
      const aHasLock = new Promise<void>((resolve) => (aLocked = resolve));
      const first = a.transaction(async (tx) => {
        await a.takeApplyLock(tx);
        events.push('a locked');
        aLocked();
        await aMayFinish;
        await a.repositories.settings.set(tx, 'apply.last', 'by a', 1);
        events.push('a commits');
      });
      await aHasLock;
      const second = b.transaction(async (tx) => {
        await b.takeApplyLock(tx);
        events.push('b locked');
        return b.repositories.settings.get(tx, 'apply.last');
      });
      await sleep(300);
      letAFinish();
      await first;
      expect(await second).toBe('by a');
      expect(events).toEqual(['a locked', 'a commits', 'b locked']);
    });
  });

  it('pings a database that answers; rejects when it cannot be reached', async () => {
    await expect(s.storage.ping()).resolves.toBeUndefined();
    const nowhere = openStorage(unreachable(s.database.config));
    try {
      await expect(nowhere.ping()).rejects.toThrow();
    } finally {
      await nowhere.close();
    }
  });

  it('reports every migration applied; migrating again does nothing', async () => {
    const status = await s.storage.migrationStatus();
    expect(status.applied.length).toBeGreaterThan(0);
    expect(status.pending).toEqual([]);
    expect(await s.storage.migrate()).toEqual([]);
    expect(await s.storage.migrationStatus()).toEqual(status);
  });

  it('close ends the storage: it no longer answers', async () => {
    const storage = openStorage(s.database.config);
    await storage.ping();
    await storage.close();
    await expect(storage.ping()).rejects.toThrow();
  });
}
