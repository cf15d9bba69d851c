import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPageContext, loadUiBundles, renderLoginPage } from '../../src/web/index.js';
import { testConfig } from '../support/config-fixture.js';

/** src/web/ui-bundles.ts: the built pages' bundles, and the pages that link them instead of their modules. */
describe('the pages’ script bundles', () => {
  it('are read by name from the build’s directory, and are none without one', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'idp-ui-bundles-'));
    try {
      await writeFile(path.join(dir, 'login.js'), 'console.log(1)');
      await writeFile(path.join(dir, 'notes.txt'), 'not a script');
      expect([...loadUiBundles(`${dir}/`)]).toEqual([['login.js', 'console.log(1)']]);
      expect(loadUiBundles(path.join(dir, 'missing/')).size).toBe(0);
      // Run from src/ (as here), there is no build beside it: the pages load their modules.
      expect(loadUiBundles().size).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('replace the frame’s and the page’s modules with one script where the page has a bundle', () => {
    const login = {
      clientName: null,
      returnTo: null,
      loginHint: null,
      selectAccount: false,
      errorCode: null,
      providers: [],
      errorProvider: null,
    };
    const request = { path: '/login', query: {} };
    const bundled = renderLoginPage(createPageContext(testConfig(), request, new Set(['login.js'])), login);
    expect(bundled.match(/<script type="module"[^>]*>/g)).toEqual(['<script type="module" src="/ui/bundle/login.js">']);
    const modules = renderLoginPage(createPageContext(testConfig(), request), login);
    expect(modules.match(/<script type="module"[^>]*>/g)).toEqual([
      '<script type="module" src="/ui/frame.js">',
      '<script type="module" src="/ui/login.js">',
    ]);
  });
});
