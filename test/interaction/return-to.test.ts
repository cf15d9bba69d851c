import { describe, expect, it } from 'vitest';
import { isSafeReturnTo } from '../../src/interaction/return-to.js';

describe('isSafeReturnTo', () => {
  it.each(['/oauth2/authorize?client_id=web&scope=openid', '/', '/consent?return_to=%2Foauth2%2Fauthorize', '/a/b//c'])(
    'accepts the same-origin path %j',
    (value) => {
      expect(isSafeReturnTo(value)).toBe(true);
    },
  );

  it.each([
    ['a protocol-relative URL', '//evil.example/x'],
    ['a backslash host', '/\\evil.example/x'],
    ['an absolute URL', 'https://evil.example/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'oauth2/authorize'],
    ['a tab that URL parsers drop', '/\t/evil.example'],
    ['a newline', '/\n/evil.example'],
    ['an empty string', ''],
    ['a non-string', 42],
    ['a path that is too long', `/${'a'.repeat(9000)}`],
  ])('refuses %s', (_, value) => {
    expect(isSafeReturnTo(value)).toBe(false);
  });
});

describe('isSafeReturnTo with forward_auth apps', () => {
  const headers = { user: 'Remote-User', email: 'Remote-Email', name: 'Remote-Name', groups: 'Remote-Groups' };
  const apps = [
    { host: 'grafana.example.com', pathPrefix: '/', access: null, headers },
    { host: '*.tools.example.com', pathPrefix: '/app', access: null, headers },
  ];

  it.each([
    'https://grafana.example.com/',
    'https://grafana.example.com/d/x?orgId=1#panel',
    'http://GRAFANA.example.com:8443/d',
    'https://grafana.example.com',
    'https://wiki.tools.example.com/app/page',
  ])('accepts the declared app URL %j', (value) => {
    expect(isSafeReturnTo(value, apps)).toBe(true);
  });

  it.each([
    ['another host', 'https://evil.example/'],
    ['a suffix trick', 'https://grafana.example.com.evil.com/'],
    ['a prefix trick', 'https://evilgrafana.example.com/'],
    ['userinfo', 'https://grafana.example.com@evil.com/'],
    ['userinfo before the app host', 'https://evil.com@grafana.example.com/'],
    ['a backslash', 'https://grafana.example.com\\@evil.com/'],
    ['a backslash path', 'https://evil.com\\grafana.example.com/'],
    ['a protocol-relative URL', '//grafana.example.com/'],
    ['a javascript: URL', 'javascript://grafana.example.com/%0aalert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['another scheme', 'ftp://grafana.example.com/'],
    ['a tab', 'https://grafana.example.com\t.evil.com/'],
    ['a percent-encoded host', 'https://grafana%2eexample.com/'],
    ['a wildcard two labels deep', 'https://a.b.tools.example.com/app'],
    ['a path outside the prefix', 'https://wiki.tools.example.com/other'],
    ['the wildcard domain itself', 'https://tools.example.com/app'],
    ['an IDN look-alike', 'https://grаfana.example.com/'],
    ['a space', 'https://grafana.example.com /'],
  ])('refuses %s', (_, value) => {
    expect(isSafeReturnTo(value, apps)).toBe(false);
  });

  it('refuses every absolute URL without apps', () => {
    expect(isSafeReturnTo('https://grafana.example.com/')).toBe(false);
  });
});
