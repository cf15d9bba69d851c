import { describe, expect, it } from 'vitest';
import { canonicalAddress } from '../../src/accounts/login-rate-limit.js';

/** One spelling per address, so that a rate-limit counter and `idp ratelimit clear --address` meet. */
describe('canonicalAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['2001:DB8::0:7', '2001:db8::7'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
    ['fe80::1%ETH0', 'fe80::1%eth0'],
  ])('%s → %s', (text, expected) => {
    expect(canonicalAddress(text)).toBe(expected);
  });

  it.each(['', 'localhost', '203.0.113', '203.0.113.7/32', '1.2.3.4:80', 'not an address'])(
    '%j is not an address',
    (text) => {
      expect(canonicalAddress(text)).toBeNull();
    },
  );
});
