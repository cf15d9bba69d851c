import { pino } from 'pino';
import { Gauge, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetricsListener, type MetricsListener } from '../../src/operations/index.js';

/** The listener alone, on a registry of its own: what it answers, and how it fails. */
describe('createMetricsListener', () => {
  const listeners: MetricsListener[] = [];
  afterEach(async () => {
    for (const listener of listeners.splice(0)) await listener.stop();
  });
  const listen = (registry: Registry, port = 0) => {
    const listener = createMetricsListener({ registry, host: '127.0.0.1', port, logger: pino({ level: 'silent' }) });
    listeners.push(listener);
    return listener;
  };

  it('answers HEAD like GET, without a body', async () => {
    const registry = new Registry();
    new Gauge({ name: 'answer', help: 'The answer.', registers: [registry] }).set(42);
    const url = await listen(registry).start();
    const get = await fetch(url);
    expect(await get.text()).toMatch(/^answer 42$/m);
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers 500 when collecting fails, and goes on listening', async () => {
    const registry = new Registry();
    let fail = true;
    new Gauge({
      name: 'flaky',
      help: 'Fails on the first scrape.',
      registers: [registry],
      collect() {
        if (fail) throw new Error('the first scrape fails');
      },
    });
    const url = await listen(registry).start();
    const broken = await fetch(url);
    expect(broken.status).toBe(500);
    expect(await broken.text()).not.toMatch(/first scrape/);
    fail = false;
    expect((await fetch(url)).status).toBe(200);
  });

  it('writes an IPv6 host in brackets', async () => {
    const listener = createMetricsListener({
      registry: new Registry(),
      host: '::1',
      port: 0,
      logger: pino({ level: 'silent' }),
    });
    listeners.push(listener);
    const url = await listener.start();
    expect(url).toMatch(/^http:\/\/\[::1\]:\d+\/metrics$/);
    expect((await fetch(url)).status).toBe(200);
  });

  it('refuses to start on a port that is taken, and stopping a listener that never started does nothing', async () => {
    const url = await listen(new Registry()).start();
    const taken = listen(new Registry(), Number(new URL(url).port));
    await expect(taken.start()).rejects.toThrow(/EADDRINUSE/);
    expect(taken.url()).toBeNull();
    await taken.stop();
  });
});
