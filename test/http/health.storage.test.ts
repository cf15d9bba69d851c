import { afterEach, describe, expect, it } from 'vitest';
import { healthTimeoutMs } from '../../src/http/routes/health-route.js';
import { databaseKinds } from '../support/databases.js';
import { createTestApp, inject, type TestApp } from '../support/test-app.js';

/** docs/http-api.md, "Health": GET /api/health → 200 { status: 'ok' } when the database answers, 503 otherwise. */
describe.each(databaseKinds)('GET /api/health on %s', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  it('answers 200 { status: "ok" } on a real port when the database answers', async () => {
    t = await createTestApp(kind);
    await t.app.start();
    const port = t.app.server.info.port;
    const response = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 { code, message } when the database does not answer', async () => {
    t = await createTestApp(kind);
    await t.database.db.destroy();
    const response = await inject(t, 'GET', '/api/health');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The database is not answering.' });
    expect(response.payload).not.toMatch(/\bat .+:\d+:\d+|knex|pool/i);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 within the health timeout when the database hangs (every connection busy)', async () => {
    t = await createTestApp(kind);
    const { db } = t.database;
    const poolMax = db.client.pool.max as number;
    // Hold every pooled connection in an open transaction: the ping cannot get one.
    const held = await Promise.all(Array.from({ length: poolMax }, () => db.transaction()));
    try {
      const started = Date.now();
      const response = await inject(t, 'GET', '/api/health');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'The database is not answering.' });
      expect(Date.now() - started).toBeLessThan(healthTimeoutMs + 1500);
    } finally {
      for (const trx of held) await trx.rollback();
    }
    expect((await inject(t, 'GET', '/api/health')).statusCode).toBe(200);
  });
});
