import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** docs/http-api.md, "OpenAPI": the self-hosted reference renders in a real browser, from this server only. */
describe('GET /api/docs in Chromium', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.start();
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await t.destroy();
  });

  it('renders the live document with its operations and requests nothing from another host', async () => {
    const origin = `http://127.0.0.1:${t.app.server.info.port}`;
    const page = await browser.newPage();
    const foreign: string[] = [];
    const failed: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${origin}/api/docs`);
    await page.waitForSelector('.opblock', { timeout: 15_000 });
    expect(await page.title()).toBe('idp API Reference');
    expect(await page.textContent('.info .title')).toContain('idp API');
    expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
    expect(await page.locator('.btn.authorize').count()).toBe(1);
    expect(foreign).toEqual([]);
    expect(failed).toEqual([]);
  }, 30_000);
});
