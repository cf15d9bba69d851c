import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';

/** SPEC.md 5: bearerAuth, an HTTP bearer JWT access token (RFC 9068). */
export const bearerStrategy = 'bearer';

/** `request.auth.credentials` on bearer routes; `scope` holds the OAuth scopes. */
export interface BearerCredentials {
  sub: string;
  clientId: string;
  scope: string[];
  claims: Record<string, unknown>;
}

/**
 * Registers the `bearer` strategy around the verification function of the
 * token engine. A missing token is "missing" (other strategies may try); a
 * token that fails verification answers 401 with the RFC 6750 §3
 * WWW-Authenticate challenge (error="invalid_token").
 */
export function registerBearerAuth(
  server: Server,
  verifyAccessToken: (token: string) => Promise<BearerCredentials>,
): void {
  server.auth.scheme('bearer-jwt', () => ({
    async authenticate(request: Request, h: ResponseToolkit) {
      const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(
        (request.headers.authorization as string | undefined) ?? '',
      );
      if (!match) return h.unauthenticated(Boom.unauthorized(null, 'Bearer'));
      try {
        const credentials = await verifyAccessToken(match[1]);
        return h.authenticated({ credentials: credentials as unknown as Record<string, unknown> });
      } catch {
        // A message argument would be written into the challenge as a second `error` attribute.
        return h.unauthenticated(
          Boom.unauthorized(null, 'Bearer', {
            error: 'invalid_token',
            error_description: 'The access token is invalid or expired.',
          }),
        );
      }
    },
  }));
  server.auth.strategy(bearerStrategy, 'bearer-jwt');
}
