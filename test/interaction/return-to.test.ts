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
