import type { Logger } from 'pino';

/**
 * The access log line of one answered request, at info. The path only: a
 * query string may hold codes and tokens. Never headers or bodies.
 */
export function logRequest(
  logger: Logger,
  request: { method: string; path: string; status: number | undefined; receivedAt: number },
): void {
  if (!logger.isLevelEnabled('info')) return;
  logger.info(
    {
      method: request.method.toUpperCase(),
      path: request.path,
      status: request.status,
      duration_ms: Date.now() - request.receivedAt,
    },
    'request',
  );
}
