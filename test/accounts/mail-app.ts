import type { Config } from '../../src/config/types.js';
import type { JobRunResult } from '../../src/scheduler/job-worker.js';
import { testConfig } from '../support/config-fixture.js';
import type { TestApp } from '../support/test-app.js';

/**
 * The config of the self-service tests: registration with verification,
 * e-mail through the SMTP server on `smtpPort`, English and German,
 * branding, client addresses from X-Forwarded-For (one trusted hop), and
 * the scheduler off so that a test runs each job itself (runJobs) with no
 * delay between attempts.
 */
export function mailConfig(smtpPort: number, overrides: Partial<Config> = {}): Partial<Config> {
  const base = testConfig();
  return {
    server: { ...base.server, host: '127.0.0.1', port: 0, trustProxy: { hops: 1 } },
    email: {
      enabled: true,
      from: 'Example ID <id@example.com>',
      smtp: { host: '127.0.0.1', port: smtpPort, secure: false, user: null, password: null },
    },
    registration: { enabled: true, allowedEmailPatterns: [], emailVerificationRequired: true, signupNotice: {} },
    i18n: { defaultLocale: 'en', locales: ['en', 'de'] },
    branding: { name: 'Example ID', logoUrl: 'https://cdn.example.com/logo.png', primaryColor: '#ffcc00' },
    scheduler: { ...base.scheduler, enabled: false, backgroundRetryDelayMs: 0 },
    ...overrides,
  };
}

/** Runs every due background job, one after the other, until none is left; returns what each run did. */
export async function runJobs(t: TestApp): Promise<JobRunResult[]> {
  const results: JobRunResult[] = [];
  for (;;) {
    const result = await t.app.scheduler.worker.runNext();
    if (!result) return results;
    results.push(result);
  }
}

/** A distinct client address per call, so that the rate limit per address never gets in the way of a test that is not about it. */
let nextAddress = 0;
export function freshAddress(): Record<string, string> {
  nextAddress += 1;
  return { 'x-forwarded-for': `198.51.${Math.floor(nextAddress / 250)}.${nextAddress % 250}` };
}
