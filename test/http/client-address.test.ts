import { BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../src/http/client-address.js';
import type { TrustProxy } from '../../src/config/types.js';

/** server.trust_proxy's list form, as normalizeTrustProxy builds it. */
function trusted(...ranges: [string, number, 'ipv4' | 'ipv6'][]): TrustProxy {
  const list = new BlockList();
  for (const [address, prefix, family] of ranges) list.addSubnet(address, prefix, family);
  return { trusted: list };
}

const lan = trusted(['10.0.0.0', 8, 'ipv4'], ['127.0.0.1', 32, 'ipv4']);
const lan6 = trusted(['fd00::', 8, 'ipv6'], ['::1', 128, 'ipv6']);

const request = (peer: string, forwardedFor?: string) => ({
  info: { remoteAddress: peer },
  headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
});

describe('clientAddress', () => {
  it.each<[string, TrustProxy, string, string | undefined, string]>([
    // trust_proxy false: the socket peer, whatever the header says.
    ['no proxy trusted', false, '203.0.113.9', '198.51.100.1', '203.0.113.9'],
    ['no proxy trusted, no header', false, '203.0.113.9', undefined, '203.0.113.9'],

    // A number of hops: the entry that many places from the right, counting the peer as the first.
    ['one hop: the entry the proxy appended', { hops: 1 }, '10.0.0.2', '198.51.100.7', '198.51.100.7'],
    ['one hop: a spoofed first entry is ignored', { hops: 1 }, '10.0.0.2', '1.1.1.1, 198.51.100.7', '198.51.100.7'],
    [
      'one hop: several spoofed entries are ignored',
      { hops: 1 },
      '10.0.0.2',
      '1.1.1.1, 2.2.2.2, 3.3.3.3, 198.51.100.7',
      '198.51.100.7',
    ],
    ['two hops: CDN then load balancer', { hops: 2 }, '10.0.0.2', '1.1.1.1, 198.51.100.7, 192.0.2.50', '198.51.100.7'],
    [
      'hops larger than the list: the left-most entry',
      { hops: 5 },
      '10.0.0.2',
      '198.51.100.7, 192.0.2.50',
      '198.51.100.7',
    ],
    ['one hop without a header: the peer', { hops: 1 }, '10.0.0.2', undefined, '10.0.0.2'],
    ['one hop, empty header: the peer', { hops: 1 }, '10.0.0.2', '', '10.0.0.2'],
    [
      'spaces and no spaces around commas',
      { hops: 2 },
      '10.0.0.2',
      '1.1.1.1 ,198.51.100.7,  192.0.2.50 ',
      '198.51.100.7',
    ],

    // A list of proxies: the right-most entry not in the list.
    ['a trusted peer: its appended entry', lan, '10.0.0.2', '198.51.100.7', '198.51.100.7'],
    ['a trusted peer: a spoofed first entry is ignored', lan, '10.0.0.2', '1.1.1.1, 198.51.100.7', '198.51.100.7'],
    [
      'several trusted proxies are skipped',
      lan,
      '127.0.0.1',
      '1.1.1.1, 198.51.100.7, 10.9.9.9, 10.1.1.1',
      '198.51.100.7',
    ],
    [
      'a spoofed entry that looks trusted, left of the client, is never reached',
      lan,
      '10.0.0.2',
      '10.5.5.5, 198.51.100.7',
      '198.51.100.7',
    ],
    ['an untrusted peer: the header is not read at all', lan, '198.51.100.66', '10.0.0.3', '198.51.100.66'],
    ['an untrusted peer, no header', lan, '198.51.100.66', undefined, '198.51.100.66'],
    ['every entry trusted: the left-most', lan, '10.0.0.2', '10.3.3.3, 10.2.2.2', '10.3.3.3'],
    ['a trusted peer without a header: the peer', lan, '10.0.0.2', undefined, '10.0.0.2'],
    ['an IPv4-mapped IPv6 peer inside an IPv4 range', lan, '::ffff:10.0.0.2', '198.51.100.7', '198.51.100.7'],

    // IPv6.
    ['IPv6 proxies and client', lan6, 'fd00::2', '2001:db8::bad, 2001:db8::7, fd12::1', '2001:db8::7'],
    ['an IPv6 loopback peer with one hop', { hops: 1 }, '::1', '2001:db8::7', '2001:db8::7'],
    ['an untrusted IPv6 peer', lan6, '2001:db8::66', 'fd00::9', '2001:db8::66'],
    ['an IPv4 client behind IPv6 proxies', lan6, '::1', '198.51.100.7', '198.51.100.7'],

    // Entries that are not addresses end the walk at the proxy that passed them on.
    ['garbage where the client should be', { hops: 1 }, '10.0.0.2', 'not-an-address', '10.0.0.2'],
    [
      '"unknown" (as some proxies write) with more hops than entries',
      { hops: 3 },
      '10.0.0.2',
      'unknown, 198.51.100.7',
      '198.51.100.7',
    ],
    ['a port is not an address', lan, '10.0.0.2', '198.51.100.7:4711', '10.0.0.2'],
    ['an empty entry', lan, '10.0.0.2', '198.51.100.7, , 10.1.1.1', '10.1.1.1'],
  ])('%s', (_name, trust, peer, forwardedFor, expected) => {
    expect(clientAddress(request(peer, forwardedFor), trust)).toBe(expected);
  });
});
