import { execa } from 'execa';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKinds } from '../support/databases.js';

/**
 * The unit project's guards (test/support/projects/, docs/testing.md): what
 * a unit test must not use fails, and the message names the project the
 * test belongs to. This file is itself a unit test, so it runs under them.
 */
describe('the unit project', () => {
  it.each(databaseKinds)('refuses to open %s and points to *.storage.test.ts', async (kind) => {
    await expect(createTestDatabase(kind)).rejects.toThrow(
      /^unit tests open no database \(this one opened (SQLite|PostgreSQL)\): a test that needs storage is named \*\.storage\.test\.ts/,
    );
  });

  it('refuses to start bin/idp or any other process and points to *.process.test.ts', async () => {
    await expect(execa(process.execPath, ['--version'])).rejects.toThrow(
      /unit tests start no child process \(this one ran .*node\): a test that spawns bin\/idp or another process is named \*\.process\.test\.ts/,
    );
  });

  it('refuses to start Chromium and points to *.browser.test.ts', async () => {
    await expect(chromium.launch({ executablePath: '/usr/bin/chromium' })).rejects.toThrow(
      /unit tests start no child process \(this one ran \/usr\/bin\/chromium\): a test that drives Chromium is named \*\.browser\.test\.ts/,
    );
  });
});
