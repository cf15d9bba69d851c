import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, headless, as every browser test runs it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    headless: true,
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

/** What a page reported while a test drove it: console messages, uncaught errors, CSP violations. */
export interface PageReports {
  console: { type: string; text: string; url: string }[];
  pageErrors: string[];
  /** `securitypolicyviolation` events of every document the page showed, frames included. */
  violations: string[];
}

/**
 * Listens before the first navigation and across all of them: the event
 * listener is an init script (run in every new document, frames included,
 * and exempt from the page's own policy) that reports through a binding.
 */
export async function watchPage(page: Page): Promise<PageReports> {
  const reports: PageReports = { console: [], pageErrors: [], violations: [] };
  page.on('console', (message) =>
    reports.console.push({ type: message.type(), text: message.text(), url: message.location().url }),
  );
  page.on('pageerror', (error) => reports.pageErrors.push(String(error)));
  await page.exposeBinding('reportViolation', (_source, violation: string) => {
    reports.violations.push(violation);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportViolation(text: string): void }).reportViolation;
      report(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} on ${event.documentURI}`);
    });
  });
  return reports;
}
