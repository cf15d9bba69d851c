import { parseAddressRange } from '../parse-address-range.js';
import { error, warning, type ConfigRule } from './config-rule.js';

/**
 * server.trust_proxy: every listed proxy must be an address or a CIDR range;
 * `true` (the boolean of earlier versions, which trusted whatever the client
 * wrote first) now means one hop, which is worth saying out loud.
 */
export const checkTrustProxy: ConfigRule = (config) => {
  const value = config.server.trust_proxy;
  const path = ['server', 'trust_proxy'];
  if (value === true) {
    return [
      warning(
        path,
        "true trusts one proxy hop: the client address is the last X-Forwarded-For entry, written by the proxy idp sees; write 1, or the proxies' addresses, to say so",
      ),
    ];
  }
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry, index) => {
    if (typeof entry !== 'string') return [];
    const parsed = parseAddressRange(entry);
    return 'error' in parsed ? [error([...path, index], parsed.error)] : [];
  });
};
