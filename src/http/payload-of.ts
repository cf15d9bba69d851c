import type { Request } from '@hapi/hapi';

/** The parsed body, or `{}`: hapi's types say there always is one, but a request without a body has null. */
export function payloadOf(request: Request): unknown {
  const payload: unknown = request.payload;
  return payload ?? {};
}
