import { defineConfig } from 'vitest/config';

/**
 * The test projects (docs/testing.md). A file's name says which one it
 * belongs to, by its heaviest need; a plain *.test.ts is a unit test. Each
 * project's setup file forbids what the project must not use, so a misnamed
 * file fails instead of passing by luck.
 */
const needs = {
  storage: 'test/**/*.storage.test.ts',
  browser: 'test/**/*.browser.test.ts',
  process: 'test/**/*.process.test.ts',
};
/** PostgreSQL must be reachable wherever a test may open a database. */
const postgres = 'test/support/global-setup.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll's own default (1 s) is shorter than a page's answer on a loaded two-core CI machine
    // (a passkey ceremony's status line once took longer); a poll that succeeds returns at once anyway.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // Two files at a time. vitest's default (one fewer than the cores) is a
    // single worker on CI's two cores, and most of the suite waits on
    // PostgreSQL, Chromium or a child process rather than the CPU: one worker
    // left a core idle and took about 18 minutes.
    maxWorkers: 2,
    // Workers are reused (isolate: false): a worker runs one file after
    // another of the same project instead of a new process per file, which
    // imported the whole app again each time and took 40 % of the storage
    // project's time (174 of 436 s). vitest 3 sets this for the forks pool as
    // a whole, not per project. Files keep no state outside their own
    // databases, ports and processes (docs/testing.md).
    poolOptions: { forks: { isolate: false } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: Object.values(needs),
          setupFiles: ['test/support/projects/unit.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'storage',
          include: [needs.storage],
          globalSetup: [postgres],
          setupFiles: ['test/support/projects/storage.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: [needs.browser],
          globalSetup: [postgres],
          setupFiles: ['test/support/projects/browser.ts'],
        },
      },
      { extends: true, test: { name: 'process', include: [needs.process], globalSetup: [postgres] } },
    ],
    // On with --coverage (npm test). Only code that runs inside the vitest
    // workers counts: the CLI spawned through bin/idp (from dist/) and the
    // scripts of src/web/public, which run in Chromium, are not measured.
    coverage: {
      provider: 'v8',
      include: ['src/**'],
      exclude: ['src/web/public/**'],
      reporter: ['text-summary', 'json-summary'],
      // The floor, just under what the full suite reached when it was set
      // (lines 98.42%, branches 96.24%): raise it when the suite does, never
      // lower it. Run single test files or one project without --coverage:
      // they fall short.
      thresholds: { lines: 98.2, branches: 96 },
    },
  },
});
