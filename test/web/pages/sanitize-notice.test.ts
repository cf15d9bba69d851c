import { describe, expect, it } from 'vitest';
import { sanitizeNotice } from '../../../src/web/pages/sanitize-notice.js';
import { logoSource, safeHref } from '../../../src/web/pages/safe-href.js';

describe('sanitizeNotice (registration.signup_notice)', () => {
  it.each([
    ['plain text', 'By signing up you agree.', 'By signing up you agree.'],
    [
      'allowed tags, written back bare',
      '<p class="x" onclick="y()">A <STRONG style="color:red">b</STRONG><br/>c</p>',
      '<p>A <strong>b</strong><br>c</p>',
    ],
    [
      'a link keeps only a safe href',
      '<a href="https://acme.example/terms?a=1&amp;b=2" target="_blank" onmouseover="x()">terms</a>',
      '<a href="https://acme.example/terms?a=1&#38;b=2">terms</a>',
    ],
    [
      'a mailto link',
      "<a href='mailto:privacy@acme.example'>write</a>",
      '<a href="mailto:privacy@acme.example">write</a>',
    ],
    ['a javascript: link loses its href', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['an unquoted href', '<a href=/terms>x</a>', '<a href="/terms">x</a>'],
    ['a link without an href', '<a name="x">x</a>', '<a>x</a>'],
    [
      'scripts, styles and images are dropped, their text stays as text',
      '<script>alert("x")</script><img src=x onerror=y()><style>*{}</style>',
      'alert("x")*{}',
    ],
    ['open tags are closed within the notice', '<b><a href="/x">unclosed', '<b><a href="/x">unclosed</a></b>'],
    ['a close tag closes what was opened inside it', '<b><i>x</b> y</i>', '<b><i>x</i></b> y'],
    ['a stray close tag is dropped', 'x</p></div>', 'x'],
    [
      'entities the author wrote stay; other ampersands and brackets are escaped',
      'Tom &amp; Jerry &copy; 1 < 2 & 3 > 2 &#8212;',
      'Tom &amp; Jerry &copy; 1 &lt; 2 &amp; 3 &gt; 2 &#8212;',
    ],
    ['a comment is text', '<!-- hidden -->', '&lt;!-- hidden --&gt;'],
  ])('%s', (_name, source, expected) => {
    expect(sanitizeNotice(source).value).toBe(expected);
  });
});

describe('safeHref and logoSource', () => {
  it.each([
    ['https://acme.example/x', {}, 'https://acme.example/x'],
    ['/terms', {}, '/terms'],
    ['//evil.example/x', {}, null],
    ['/\\evil.example', {}, null],
    ['javascript:alert(1)', {}, null],
    ['mailto:a@b.c', {}, null],
    ['mailto:a@b.c', { allowMailto: true }, 'mailto:a@b.c'],
    ['data:image/png;base64,AAAA', {}, null],
    ['not a url', {}, null],
  ])('safeHref(%s, %j) → %s', (url, options, expected) => {
    expect(safeHref(url, options)).toBe(expected);
  });

  it.each([
    [null, null],
    ['/logo.svg', null],
    ['https://idp.example/logo.svg', null],
    ['https://cdn.example/logo.svg', 'https://cdn.example'],
    ['data:image/svg+xml;base64,AAAA', 'data:'],
    ['ftp://cdn.example/logo.svg', null],
  ])('logoSource(%s) → %s', (logo, expected) => {
    expect(logoSource(logo, 'https://idp.example')).toBe(expected);
  });
});
