import { describe, expect, it } from 'vitest';
import { renderSignedOutPage, renderSignOutPage } from '../../src/web/index.js';

describe('the sign-out pages', () => {
  it('escape what they show and carry, and leave out Cancel when there is nowhere to go', () => {
    const html = renderSignOutPage({ brandingName: 'A<b>', email: 'x"@y', action: '/oauth2/logout/confirm', fields: { state: '"><script>' }, cancelHref: null });
    expect(html).toContain('<title>Sign out · A&#60;b&#62;</title>');
    expect(html).toContain('Signed in as x&#34;@y');
    expect(html).toContain('<input type="hidden" name="state" value="&#34;&#62;&#60;script&#62;">');
    expect(html).not.toContain('Cancel');
  });

  it('say "not signed in" when there was no session, and move on only with a redirect', () => {
    const html = renderSignedOutPage({ brandingName: 'Acme', signedOut: false, continueTo: null });
    expect(html).toContain('You are not signed in.');
    expect(html).not.toContain('http-equiv');
  });
});
