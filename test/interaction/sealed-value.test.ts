import { describe, expect, it } from 'vitest';
import { sealValue, unsealValue } from '../../src/interaction/sealed-value.js';

const password = 'a-cookie-password-of-at-least-32-characters';

describe('sealValue', () => {
  it('round-trips a value and hides it', () => {
    const sealed = sealValue(['sid-1', 'sid-2'], password, 'remembered-accounts');
    expect(sealed).not.toContain('sid');
    expect(unsealValue(sealed, password, 'remembered-accounts')).toEqual(['sid-1', 'sid-2']);
  });

  it.each([
    ['another password', (s: string) => unsealValue(s, `${password}!`, 'remembered-accounts')],
    ['another purpose', (s: string) => unsealValue(s, password, 'session')],
    [
      'a flipped byte',
      (s: string) =>
        unsealValue(`${s.slice(0, 20)}${s[20] === 'A' ? 'B' : 'A'}${s.slice(21)}`, password, 'remembered-accounts'),
    ],
    ['a truncated value', (s: string) => unsealValue(s.slice(0, 30), password, 'remembered-accounts')],
    ['garbage', () => unsealValue('not sealed at all', password, 'remembered-accounts')],
  ])('refuses %s', (_, open) => {
    expect(open(sealValue(['sid-1'], password, 'remembered-accounts'))).toBeNull();
  });
});
