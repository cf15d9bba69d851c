import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { testClient } from '../support/config-fixture.js';
import { startGroupsFixture, type GroupsFixture } from '../federation/support/groups-fixture.js';
import { launchChromium } from './support/browser.js';
import { RelyingParty } from './support/relying-party.js';
import { freePort } from './support/start-idp.js';

/**
 * Issue 23 in a real Chromium: a relying party (openid-client) sends the
 * browser to the login page, whose "Continue with Corp SSO" goes to an
 * upstream OpenID provider (oidc-provider on 127.0.0.1) asserting
 * `groups: [sre, x]`; back at the relying party, the user is in the group
 * `sre`, whose `upstream` entry maps that value.
 */
describe('upstream group mapping in Chromium', () => {
  let f: GroupsFixture;
  let rp: RelyingParty;
  let browser: Browser;

  beforeAll(async () => {
    rp = new RelyingParty(await freePort(), {
      clientId: 'web',
      clientSecret: testClient({ clientId: 'web' }).clientSecret,
    });
    f = await startGroupsFixture('sqlite', {
      clients: [testClient({ clientId: 'web', name: 'Acme Notes', redirectUris: [rp.redirectUri] })],
    });
    await rp.discover(f.idp.url);
    await rp.listen();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await rp?.close();
    await f?.stop();
  });

  it('a user signing in through an upstream that asserts groups ends up in the mapped group', async () => {
    f.corpAccounts.ada.groups = ['sre', 'x'];
    f.oidc.signInAs('ada');
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${rp.url}/start`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('link', { name: 'Continue with Corp SSO' }).click();
    await page.waitForURL((url) => url.pathname === '/consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.origin === rp.url && url.pathname === '/callback');

    const ada = await f.subOf('ada@example.com');
    expect(await page.locator('#who').textContent()).toBe(`Signed in as ${ada} (ada@example.com)`);
    const last = rp.results.at(-1);
    if (last instanceof Error) throw last;
    expect(last?.claims).toMatchObject({ sub: ada, aud: 'web', amr: ['fed'] });
    expect(await f.memberships(ada)).toEqual([['sre', 'upstream', 'corp']]);
    await context.close();
  });
});
