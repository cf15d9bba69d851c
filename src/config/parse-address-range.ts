import { isIP } from 'node:net';

/** One entry of server.trust_proxy: an address (a range of one) or a CIDR range. */
export interface AddressRange {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/**
 * `10.0.0.7`, `10.0.0.0/8`, `2001:db8::1` or `2001:db8::/32`, or why the text
 * is none of those. Host bits under the prefix are ignored (10.0.0.7/8 is
 * 10.0.0.0/8), as in the CIDR lists of other servers.
 */
export function parseAddressRange(text: string): AddressRange | { error: string } {
  const parts = text.split('/');
  const address = parts[0];
  const prefixText = parts.at(1);
  const rest = parts.slice(2);
  const version = isIP(address);
  if (version === 0)
    return { error: `"${text}" is not an IPv4 or IPv6 address or CIDR range (such as 10.0.0.0/8 or 2001:db8::/32)` };
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const bits = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: bits, family };
  const prefix = /^\d{1,3}$/.test(prefixText) && rest.length === 0 ? Number(prefixText) : NaN;
  if (!(prefix <= bits))
    return { error: `"${text}": the prefix length after "/" must be a whole number from 0 to ${bits}` };
  return { address, prefix, family };
}
