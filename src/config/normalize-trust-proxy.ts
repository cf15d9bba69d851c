import { BlockList } from 'node:net';
import type { ServerFile } from './file-types.js';
import type { TrustProxy } from './types.js';
import { parseAddressRange } from './parse-address-range.js';

/**
 * server.trust_proxy → TrustProxy. Trusting nobody has one form (false, 0
 * and [] all become false); true is one hop, the compatible reading of the
 * old boolean (./rules/check-trust-proxy.ts warns about it). The list
 * becomes a BlockList once, so that a request only asks it.
 */
export function normalizeTrustProxy(value: ServerFile['trust_proxy']): TrustProxy {
  if (value === true) return { hops: 1 };
  if (value === false || value === 0) return false;
  if (typeof value === 'number') return { hops: value };
  if (value.length === 0) return false;
  const trusted = new BlockList();
  for (const entry of value) {
    const range = parseAddressRange(entry);
    // Unreachable from the loader: checkTrustProxy has refused such a file.
    if ('error' in range) throw new Error(`server.trust_proxy: ${range.error}`);
    trusted.addSubnet(range.address, range.prefix, range.family);
  }
  return { trusted };
}
