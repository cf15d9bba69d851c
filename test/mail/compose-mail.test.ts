import { describe, expect, it } from 'vitest';
import { composeMail, escapeHtml, type MailContent } from '../../src/mail/index.js';
import { de } from '../../src/i18n/catalogues/de/index.js';
import { en } from '../../src/i18n/catalogues/en/index.js';

const content = (overrides: Partial<MailContent> = {}): MailContent => ({
  template: 'email_verification',
  locale: 'en',
  recipient: 'ada@example.com',
  link: 'https://id.example.com/verify-email?token=abc',
  validForHours: 24,
  branding: { name: 'Example ID', logoUrl: null, primaryColor: null },
  ...overrides,
});

/** Every key path of a catalogue part, to compare two languages. */
const keysOf = (value: object, prefix = ''): string[] =>
  Object.entries(value).flatMap(([key, inner]) =>
    typeof inner === 'object' ? keysOf(inner as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );

describe('composeMail', () => {
  it('escapes every value that enters the HTML, and leaves the text as it is', () => {
    const mail = composeMail(
      content({
        recipient: '"><script>alert(1)</script>@example.com',
        link: 'https://id.example.com/verify-email?token=a&b="c"',
        branding: { name: 'A & B <Corp>', logoUrl: 'https://cdn.example.com/logo.png?a=1&b="2"', primaryColor: null },
      }),
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@example.com');
    expect(mail.html).toContain('href="https://id.example.com/verify-email?token=a&amp;b=&quot;c&quot;"');
    expect(mail.html).toContain('alt="A &amp; B &lt;Corp&gt;"');
    expect(mail.html).toContain('src="https://cdn.example.com/logo.png?a=1&amp;b=%222%22"');
    expect(mail.subject).toBe('Confirm your e-mail address for A & B <Corp>');
    expect(mail.text).toContain(
      'Please confirm that "><script>alert(1)</script>@example.com is your e-mail address for A & B <Corp>.',
    );
    expect(mail.text).toContain('The A & B <Corp> team');
  });

  it('writes the whole mail in the locale, German with a region too, and English for a locale without strings', () => {
    const german = composeMail(content({ template: 'password_reset', locale: 'de-CH', validForHours: 1 }));
    expect(german.subject).toBe('Ihr Passwort für Example ID zurücksetzen');
    expect(german.text).toContain('Guten Tag,');
    expect(german.text).toContain('läuft in 1 Stunde ab');
    expect(german.text).toContain('Ihr Example ID-Team');
    expect(german.html).toContain('<html lang="de-CH">');
    expect(composeMail(content({ locale: 'pt-BR' })).subject).toBe('Confirm your e-mail address for Example ID');
    // A locale Intl cannot read (i18n.locales are not checked as BCP 47) counts its hours in English.
    expect(composeMail(content({ locale: 'en_US' })).text).toContain('expires in 24 hours');
  });

  it('puts the link in the text and twice in the HTML (button and fallback)', () => {
    const mail = composeMail(content());
    expect(mail.text).toContain('Confirm e-mail address:\nhttps://id.example.com/verify-email?token=abc');
    expect(mail.html.match(/href="https:\/\/id\.example\.com\/verify-email\?token=abc"/g)).toHaveLength(2);
  });

  it.each([
    ['#1f6feb', 'background:#1f6feb;color:#ffffff'],
    ['#FC0', 'background:#FC0;color:#000000'],
    ['rebeccapurple', 'background:rebeccapurple;color:#ffffff'],
    ['rgb(10, 20, 30)', 'background:rgb(10, 20, 30);color:#ffffff'],
    ['red;background:url(https://evil.example/x)', 'background:#1f6feb;color:#ffffff'],
    ['#12345g', 'background:#1f6feb;color:#ffffff'],
    [null, 'background:#1f6feb;color:#ffffff'],
  ])('uses branding.primary_color %j as the button: %s', (primaryColor, style) => {
    expect(composeMail(content({ branding: { name: 'X', logoUrl: null, primaryColor } })).html).toContain(style);
  });

  it.each([
    ['https://cdn.example.com/l.png', true],
    ['http://cdn.example.com/l.png', true],
    ['/logo.png', false],
    ['javascript:alert(1)', false],
    ['data:image/png;base64,AAAA', false],
  ])('shows the logo %s only from an absolute http(s) URL (%s), else the name', (logoUrl, shown) => {
    const html = composeMail(content({ branding: { name: 'Example ID', logoUrl, primaryColor: null } })).html;
    expect(html.includes('<img ')).toBe(shown);
    expect(html.includes('font-weight:600;color:#1f6feb;">Example ID</span>')).toBe(!shown);
  });

  it('has the same strings in German as in English', () => {
    expect(keysOf(de.mail)).toEqual(keysOf(en.mail));
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters HTML gives meaning to, and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a> äö €`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt; äö €',
    );
  });
});
