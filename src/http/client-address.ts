import { isIP } from 'node:net';
import type { Request } from '@hapi/hapi';
import type { TrustProxy } from '../config/types.js';

declare module '@hapi/hapi' {
  interface ServerApplicationState {
    /** server.trust_proxy, read per request (a config reload changes it in place); set by createServer. */
    trustProxy?: () => TrustProxy;
  }
}

/** What clientAddress reads of a request. */
type AddressedRequest = { info: Pick<Request['info'], 'remoteAddress'>; headers: Request['headers'] };

/**
 * The caller's address for rate limits (server.trust_proxy,
 * docs/configuration.md). Each proxy appends the address of its own peer to
 * X-Forwarded-For, so only the right end of the list was written by proxies
 * we know; everything to the left of them came from the client and may be
 * anything. The walk starts at the socket peer and moves left while the
 * address it stands on is a trusted proxy (one of the nearest `hops`, or
 * inside the `trusted` ranges); the first address that is not is the client.
 * An untrusted peer is the client at once: its X-Forwarded-For is not read.
 * When every entry is trusted, the left-most is the best answer there is.
 * An entry that is not an IP address ends the walk at the proxy that passed
 * it on, so the answer is always an address some proxy saw.
 */
export function clientAddress(request: AddressedRequest, trustProxy: TrustProxy): string {
  const peer = request.info.remoteAddress;
  if (trustProxy === false) return peer;
  const header = request.headers['x-forwarded-for'];
  // Node joins repeated X-Forwarded-For headers with ", ", in arrival order.
  const forwarded = typeof header === 'string' ? header.split(',') : [];
  let address = peer;
  for (let hop = 0; isTrusted(address, hop, trustProxy); hop++) {
    const last = forwarded.pop();
    if (last === undefined) break;
    const next = last.trim();
    if (isIP(next) === 0) break;
    address = next;
  }
  return address;
}

function isTrusted(address: string, hop: number, trustProxy: Exclude<TrustProxy, false>): boolean {
  if ('hops' in trustProxy) return hop < trustProxy.hops;
  const family = isIP(address);
  return family !== 0 && trustProxy.trusted.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The caller's address of a request to a server built by createServer, under its server.trust_proxy. */
export function addressOf(request: Request): string {
  const trustProxy = request.server.app.trustProxy;
  if (!trustProxy) throw new Error('addressOf needs a server built by createServer (server.app.trustProxy)');
  return clientAddress(request, trustProxy());
}

/**
 * Whether the socket peer of a request is a proxy server.trust_proxy names
 * (the nearest hop, or an address of `trusted`): only such a peer may tell
 * the original request of forward authentication (docs/forward-auth.md).
 */
export function peerIsTrustedProxy(request: Request): boolean {
  const trustProxy = request.server.app.trustProxy?.();
  return trustProxy ? addressIsTrustedProxy(request.info.remoteAddress, trustProxy) : false;
}

/** peerIsTrustedProxy for a socket peer's address under a given server.trust_proxy. */
export function addressIsTrustedProxy(address: string, trustProxy: TrustProxy): boolean {
  return trustProxy !== false && isTrusted(address, 0, trustProxy);
}
