import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** docs/http-api.md, "OpenAPI": the self-hosted reference renders in a real browser, from this server only. */
describe('GET /api/docs in Chromium', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      branding: { name: 'Acme ID', logoUrl: null, primaryColor: '#0b7a55' },
    });
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

  /** The relative luminance of a computed rgb() colour (WCAG 2.2). */
  const luminance = (rgb: string) => {
    const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? [])
      .slice(0, 3)
      .map(Number)
      .map((c) => {
        const v = c / 255;
        return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };

  it.each(['light', 'dark'] as const)(
    'follows the %s colour scheme and carries the brand',
    async (scheme) => {
      const origin = `http://127.0.0.1:${t.app.server.info.port}`;
      const page = await browser.newPage({ colorScheme: scheme });
      await page.goto(`${origin}/api/docs`);
      await page.waitForSelector('.opblock', { timeout: 15_000 });
      const look = await page.evaluate(() => ({
        background: getComputedStyle(document.body).backgroundColor,
        title: getComputedStyle(document.querySelector('.info .title')!).color,
        tag: getComputedStyle(document.querySelector('.opblock-tag')!).color,
        authorize: getComputedStyle(document.querySelector('.btn.authorize')!).borderColor,
        brand: document.querySelector('header.brand')?.textContent,
      }));
      if (scheme === 'dark') {
        expect(luminance(look.background)).toBeLessThan(0.05);
        expect(luminance(look.title)).toBeGreaterThan(0.6);
        expect(luminance(look.tag)).toBeGreaterThan(0.6);
      } else {
        expect(luminance(look.background)).toBeGreaterThan(0.9);
        expect(luminance(look.title)).toBeLessThan(0.1);
      }
      // branding.primary_color on the button that signs in, branding.name above the reference.
      expect(look.authorize).toBe(scheme === 'light' ? 'rgb(11, 122, 85)' : look.authorize);
      expect(look.brand).toBe('Acme ID');
      await page.close();
    },
    30_000,
  );
});
