import { describe, expect, it } from 'vitest';
import {
  displayUserCode,
  newUserCode,
  normalizeUserCode,
  userCodeAlphabet,
} from '../../../src/oidc/device/user-code.js';

describe('user codes (RFC 8628 §6.1)', () => {
  it('draws 8 letters of the 20 consonants, each letter in use', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i += 1) {
      const code = newUserCode();
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
      for (const letter of code) seen.add(letter);
    }
    expect([...seen].sort().join('')).toBe(userCodeAlphabet);
  });

  it('is shown as XXXX-XXXX', () => {
    expect(displayUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
  });

  it.each<[string, string | null]>([
    ['BCDF-GHJK', 'BCDFGHJK'],
    ['bcdf-ghjk', 'BCDFGHJK'],
    ['bcdfghjk', 'BCDFGHJK'],
    [' BCDF GHJK ', 'BCDFGHJK'],
    ['BC-DF-GH-JK', 'BCDFGHJK'],
    ['BCDF-GHJ', null],
    ['BCDF-GHJKL', null],
    ['BCDF-GHJA', null],
    ['BCDF-GHJ1', null],
    ['', null],
  ])('reads %j as %j', (typed, stored) => {
    expect(normalizeUserCode(typed)).toBe(stored);
  });
});
