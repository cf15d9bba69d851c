import type { Request } from '@hapi/hapi';

/**
 * The caller's address for rate limits. Behind a proxy (server.trust_proxy)
 * it is the first X-Forwarded-For entry; otherwise the socket's peer, so a
 * direct client cannot pick its own address.
 */
export function clientAddress(request: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = (request.headers['x-forwarded-for'] as string | undefined)?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.info.remoteAddress;
}
