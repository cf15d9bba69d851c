import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, spawnProcess, type SpawnedProcess } from '../support/spawned-process.js';

/**
 * The built pages load one script each (docs/ui.md, "Scripts and the page
 * policy"): `npm run build` bundles every page's modules with esbuild
 * (scripts/bundle-ui.mjs), the passkey library included, and `idp serve`
 * from dist/ links the bundle instead of the modules, under the same
 * policy (script-src 'self').
 */
describe('the pages of a built idp', () => {
  let dir: string;
  let idp: SpawnedProcess;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    requireBuild();
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-bundles-'));
    await writeFile(
      path.join(dir, 'idp.yaml'),
      'server:\n  host: 127.0.0.1\ndatabase:\n  client: sqlite\n  filename: ./idp.sqlite\nsecurity:\n  secret: ui-bundles-process-test-0123456789\nlogging:\n  level: info\nauth:\n  passkeys_enabled: true\n',
    );
    idp = spawnProcess(process.execPath, [path.join(repoRoot, 'bin', 'idp'), 'serve', '--port', '0'], {}, { cwd: dir });
    url = ((await idp.waitForLine((l) => typeof l.url === 'string', 60_000)).url as string).replace(
      '127.0.0.1',
      'localhost',
    );
    browser = await chromium.launch({
      headless: true,
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await idp?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('load /login with one script, the passkey library within it, and no policy violation', async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    const violations: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') violations.push(message.text());
    });
    await page.goto(`${url}/login`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    // The script ran: the e-mail field has the focus it gives.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.waitForLoadState('networkidle');
    expect(scripts).toEqual(['/ui/bundle/login.js']);
    expect(violations).toEqual([]);
    await page.close();
  }, 60_000);
});
