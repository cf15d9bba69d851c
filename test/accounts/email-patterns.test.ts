import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEmailAllowed } from '../../src/accounts/email-patterns.js';

describe('isEmailAllowed (registration.allowed_email_patterns)', () => {
  it.each([
    [[], 'anyone@anywhere.example', true],
    [['*@example.com'], 'ada@example.com', true],
    [['*@example.com'], 'ADA@EXAMPLE.COM', true],
    [['*@EXAMPLE.com'], 'ada@example.com', true],
    [['*@example.com'], 'ada@example.com.evil.net', false],
    [['*@example.com'], 'ada@sub.example.com', false],
    [['*@*.example.com'], 'ada@sub.example.com', true],
    [['*@example.com'], '@example.com', true],
    [['team-*@example.org'], 'team-a@example.org', true],
    [['team-*@example.org'], 'x-team-a@example.org', false],
    [['ada@example.com'], 'ada@example.com', true],
    [['ada@example.com'], 'adam@example.com', false],
    // Regular-expression characters are themselves.
    [['a.b@example.com'], 'axb@example.com', false],
    [['a+b@example.com'], 'a+b@example.com', true],
    [['(a)|b@x.io'], 'b@x.io', false],
    [['*@a.io', '*@b.io'], 'z@b.io', true],
  ] as const)('%j allows %s: %s', (patterns, email, allowed) => {
    expect(isEmailAllowed(email, patterns)).toBe(allowed);
  });

  it('property: "*" allows every address, and an address without wildcards allows itself in any case', () => {
    const address = fc.string({ unit: fc.constantFrom(...Array.from('abcXYZ09.+-_@()[]?$^\\|')) });
    fc.assert(
      fc.property(fc.string(), address, (anything, email) => {
        expect(isEmailAllowed(anything, ['*'])).toBe(true);
        expect(isEmailAllowed(email.toUpperCase(), [email.toLowerCase()])).toBe(true);
        expect(isEmailAllowed(`${email}x`, [email])).toBe(false);
      }),
    );
  });
});
