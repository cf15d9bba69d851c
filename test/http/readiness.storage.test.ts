import { afterEach, describe, expect, it } from 'vitest';
import { healthTimeoutMs } from '../../src/http/routes/health-route.js';
import { migrationOptions } from '../../src/storage/knex/migrate.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, type TestApp } from '../support/test-app.js';

/**
 * docs/http-api.md, "Health": GET /api/health/ready → 200 { status: 'ready' }
 * when the database answers and its migrations are current, else 503
 * NOT_READY naming the cause; it flips back once the cause is gone.
 */
describe.each(databaseKinds)('GET /api/health/ready on %s', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  const ready = async (app: TestApp) => {
    const response = await inject(app, 'GET', '/api/health/ready');
    expect(response.headers['cache-control']).toBe('no-store');
    return { status: response.statusCode, body: response.json() };
  };

  it('answers 200 { status: "ready" } on a real port', async () => {
    t = await createTestApp(kind);
    const base = await t.app.start();
    const response = await fetch(`${base}/api/health/ready`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready' });
  });

  it('flips to 503 NOT_READY while the database does not answer, and back', async () => {
    t = await createTestApp(kind);
    expect(await ready(t)).toEqual({ status: 200, body: { status: 'ready' } });
    const { db } = t.database;
    // Every pooled connection taken: to this instance, the database has gone away.
    const held = await Promise.all(Array.from({ length: db.client.pool.max as number }, () => db.transaction()));
    try {
      const started = Date.now();
      expect(await ready(t)).toEqual({
        status: 503,
        body: { code: 'NOT_READY', message: 'The database is not answering.' },
      });
      expect(Date.now() - started).toBeLessThan(healthTimeoutMs + 1500);
    } finally {
      for (const trx of held) await trx.rollback();
    }
    expect(await ready(t)).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('answers 503 NOT_READY when the database is gone for good', async () => {
    t = await createTestApp(kind);
    await t.database.db.destroy();
    const answer = await ready(t);
    expect(answer).toEqual({ status: 503, body: { code: 'NOT_READY', message: 'The database is not answering.' } });
    expect(JSON.stringify(answer.body)).not.toMatch(/knex|pool|\bat .+:\d+/i);
  });

  it('flips to 503 NOT_READY while migrations are behind, and back after they run', async () => {
    t = await createTestApp(kind);
    const { db } = t.database;
    const [, undone] = (await db.migrate.down(migrationOptions)) as [number, string[]];
    expect(undone).toHaveLength(1);
    const behind = await ready(t);
    expect(behind.status).toBe(503);
    expect(behind.body).toEqual({
      code: 'NOT_READY',
      message: `The database schema is behind: 1 migration is pending, the first ${undone[0]}; run idp migrate.`,
    });
    await t.database.storage.migrate();
    expect(await ready(t)).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('leaves the liveness answer alone: /api/health stays 200 while migrations are behind', async () => {
    t = await createTestApp(kind);
    await t.database.db.migrate.down(migrationOptions);
    const [, second] = (await t.database.db.migrate.down(migrationOptions)) as [number, string[]];
    expect((await inject(t, 'GET', '/api/health')).statusCode).toBe(200);
    expect(await ready(t)).toEqual({
      status: 503,
      body: {
        code: 'NOT_READY',
        message: `The database schema is behind: 2 migrations are pending, the first ${second[0]}; run idp migrate.`,
      },
    });
    await t.database.storage.migrate();
  });
});
