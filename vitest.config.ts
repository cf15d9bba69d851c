import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/support/global-setup.ts'],
    // On with --coverage (npm test). Only code that runs inside the vitest
    // workers counts: the CLI spawned through bin/idp (from dist/) and the
    // scripts of src/web/public, which run in Chromium, are not measured.
    coverage: {
      provider: 'v8',
      include: ['src/**'],
      exclude: ['src/web/public/**'],
      reporter: ['text-summary', 'json-summary'],
      // The floor, just under what the full suite reached when it was set
      // (lines 95.86%, branches 93.02%): raise it when the suite does, never
      // lower it. Run single test files without --coverage: they fall short.
      thresholds: { lines: 95.5, branches: 92.5 },
    },
  },
});
