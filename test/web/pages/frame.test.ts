import { describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config/types.js';
import { createPageContext, pageHref, type PageRequest } from '../../../src/web/index.js';
import { html, jsonBlock, SafeHtml } from '../../../src/web/pages/html.js';
import { languageName, renderPage } from '../../../src/web/pages/render-page.js';
import { termContent } from '../../../src/web/pages/page-context.js';
import { testConfig } from '../../support/config-fixture.js';

const bilingual = (overrides: Partial<Config> = {}) =>
  testConfig({ i18n: { defaultLocale: 'en', locales: ['en', 'de'] }, ...overrides });
const request = (overrides: Partial<PageRequest> = {}): PageRequest => ({ path: '/login', query: {}, ...overrides });

describe('html', () => {
  it('escapes what it interpolates, inserts nested markup and arrays as they are, and drops null, undefined and booleans', () => {
    const name = '<b>"Ada" & \'Bob\'</b>';
    const escaped = '&#60;b&#62;&#34;Ada&#34; &#38; &#39;Bob&#39;&#60;/b&#62;';
    expect(html`<p title="${name}">${name}</p>`.value).toBe(`<p title="${escaped}">${escaped}</p>`);
    expect(html`<ul>${['a<', 'b'].map((x) => html`<li>${x}</li>`)}</ul>`.value).toBe(
      '<ul><li>a&#60;</li><li>b</li></ul>',
    );
    expect(html`${null}${undefined}${false}${true}${0}${new SafeHtml('<br>')}`.value).toBe('0<br>');
  });

  it('writes a data block that cannot close its element', () => {
    const block = jsonBlock('page-data', { text: '</script><script>alert(1)</script>', line: '\u2028' }).value;
    expect(block).not.toContain('</script><script>');
    const json = block.slice(block.indexOf('>') + 1, block.lastIndexOf('</script>'));
    expect(JSON.parse(json)).toEqual({ text: '</script><script>alert(1)</script>', line: '\u2028' });
  });
});

describe('the page context', () => {
  it.each([
    ['?locale= first', request({ query: { locale: 'de' }, acceptLanguage: 'en' }), 'de', 'de'],
    ['then the profile locale', request({ userLocale: 'de', acceptLanguage: 'en' }), 'de', null],
    [
      "then the authorization request's ui_locales",
      request({ query: { return_to: '/oauth2/authorize?client_id=a&ui_locales=fr%20de' }, acceptLanguage: 'en' }),
      'de',
      null,
    ],
    [
      'ui_locales of anything but an authorization request is no hint',
      request({ query: { return_to: '/account?ui_locales=de' }, acceptLanguage: 'en' }),
      'en',
      null,
    ],
    ['then Accept-Language', request({ acceptLanguage: 'fr;q=0.9, de-AT;q=0.8' }), 'de', null],
    ['then the default', request({ acceptLanguage: 'fr' }), 'en', null],
    [
      'a locale that is not offered is no choice',
      request({ query: { locale: 'fr' }, acceptLanguage: 'de' }),
      'de',
      null,
    ],
    ['a repeated ?locale= is no choice', request({ query: { locale: ['de', 'en'] } }), 'en', null],
  ])('%s', (_name, pageRequest, locale, chosen) => {
    const context = createPageContext(bilingual(), pageRequest);
    expect(context.locale).toBe(locale);
    expect(context.chosenLocale).toBe(chosen);
    expect(context.text.pages.login.submit).toBe(locale === 'de' ? 'Anmelden' : 'Sign in');
  });

  it("keeps this page's address for the switcher (without locale), only with several locales and a page that can be loaded again", () => {
    const query = { return_to: '/oauth2/authorize?a=1', locale: 'de', list: ['x', 'y'] };
    expect(createPageContext(bilingual(), request({ query })).here).toEqual({
      path: '/login',
      query: [['return_to', '/oauth2/authorize?a=1']],
    });
    expect(createPageContext(bilingual(), request({ reloadable: false })).here).toBeNull();
    expect(createPageContext(testConfig(), request()).here).toBeNull();
  });

  it('carries an explicit language choice in links to other pages', () => {
    const chosen = createPageContext(bilingual(), request({ query: { locale: 'de' } }));
    expect(pageHref(chosen, '/register', { return_to: '/oauth2/authorize?x=1', other: null })).toBe(
      '/register?return_to=%2Foauth2%2Fauthorize%3Fx%3D1&locale=de',
    );
    expect(pageHref(createPageContext(bilingual(), request()), '/login')).toBe('/login');
  });

  it("picks a term's content by locale, language, default locale, then the first written", () => {
    const content = {
      en: { title: 'Terms', type: 'link' as const, content: 'https://x.example/en' },
      de: { title: 'AGB', type: 'link' as const, content: 'https://x.example/de' },
      fr: { title: 'CGU', type: 'link' as const, content: 'https://x.example/fr' },
    };
    expect(termContent(content, 'de', 'en')?.title).toBe('AGB');
    expect(termContent(content, 'de-CH', 'en')?.title).toBe('AGB');
    expect(termContent(content, 'it', 'en')?.title).toBe('Terms');
    expect(termContent({ fr: content.fr }, 'it', 'en')?.title).toBe('CGU');
    expect(termContent({}, 'it', 'en')).toBeNull();
  });
});

describe('the frame', () => {
  const terms: Config['terms'] = [
    {
      id: 'tos',
      required: true,
      consentMode: 'explicit',
      version: '1',
      content: {
        en: { title: 'Terms & conditions', type: 'link', content: 'https://acme.example/terms' },
        de: { title: 'AGB', type: 'link', content: 'https://acme.example/agb' },
      },
    },
    {
      id: 'note',
      required: false,
      consentMode: 'implicit',
      version: '1',
      content: { en: { title: 'House rules', type: 'text', content: 'Be kind.' } },
    },
    {
      id: 'bad',
      required: false,
      consentMode: 'implicit',
      version: '1',
      content: { en: { title: 'Bad', type: 'link', content: 'javascript:alert(1)' } },
    },
  ];

  it('writes lang, the title "Task · Brand", the brand name, the switcher keeping the query, and link-type terms', () => {
    const config = bilingual({ branding: { name: 'Acme <ID>', logoUrl: null, primaryColor: null }, terms });
    const context = createPageContext(
      config,
      request({ query: { locale: 'de', return_to: '/oauth2/authorize?x="1"' } }),
    );
    const page = renderPage(context, { task: 'Anmelden', body: html`<p>Body</p>`, script: 'login.js', data: { a: 1 } });
    expect(page).toMatch(/^<!doctype html>\n<html lang="de">/);
    expect(page).toContain('<title>Anmelden · Acme &#60;ID&#62;</title>');
    expect(page).toContain('<span class="brand-name">Acme &#60;ID&#62;</span>');
    expect(page).toContain(
      '<form class="language" method="get" action="/login"><input type="hidden" name="return_to" value="/oauth2/authorize?x=&#34;1&#34;">',
    );
    expect(page).toContain('<option value="de" lang="de" selected>Deutsch</option>');
    expect(page).toContain('<option value="en" lang="en">English</option>');
    expect(page).toContain(
      '<nav aria-label="Rechtliches"><ul class="footer-links"><li><a href="https://acme.example/agb">AGB</a></li></ul></nav>',
    );
    expect(page).toContain('<script type="module" src="/ui/login.js"></script>');
    expect(page).toContain('<script type="application/json" id="page-data">{"a":1}</script>');
    expect(page).not.toContain('theme.css');
  });

  it('shows the logo instead of the name, links the accent stylesheet, and has no footer with one locale and no link terms', () => {
    const config = testConfig({
      branding: { name: 'Acme', logoUrl: 'https://cdn.acme.example/logo.svg', primaryColor: '#0a7' },
    });
    const page = renderPage(createPageContext(config, request()), { task: 'Sign in', body: html`` });
    expect(page).toContain('<img class="brand-logo" src="https://cdn.acme.example/logo.svg" alt="Acme">');
    expect(page).toMatch(/<link rel="stylesheet" href="\/ui\/theme\.css\?v=[0-9a-f]{12}">/);
    expect(page).not.toContain('<footer');
    expect(page).not.toContain('page-data');
  });

  it.each([
    ['de', 'Deutsch'],
    ['en-GB', 'British English'],
    ['pt-BR', 'Português (Brasil)'],
    ['en_US', 'en_US'],
  ])('names the locale %s in itself: %s', (locale, name) => {
    expect(languageName(locale)).toBe(name);
  });

  it('a colour that cannot be used links no stylesheet', () => {
    const config = testConfig({ branding: { name: 'Acme', logoUrl: null, primaryColor: 'chartreuse' } });
    expect(renderPage(createPageContext(config, request()), { task: 'x', body: html`` })).not.toContain('theme.css');
  });
});
