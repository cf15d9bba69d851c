import Joi from 'joi';
import type { Request } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import type { HttpDeps } from '../http-deps.js';
import { missingBearerToken, userinfo } from '../../oidc/userinfo/index.js';
import { OAuthError } from '../../oidc/errors.js';
import { oauthErrorResponse } from '../schemas/oauth-schemas.js';

/**
 * GET and POST /oauth2/userinfo (OIDC Core §5.3). The access token comes in
 * the Authorization header (RFC 6750 §2.1) or, on POST, as the
 * access_token form parameter (§2.2), never both (§2).
 */
function bearerToken(request: Request, deps: HttpDeps): string {
  const header = request.headers.authorization as string | undefined;
  const fromBody = (request.payload as Record<string, unknown> | null | undefined)?.access_token;
  if (header !== undefined && fromBody !== undefined)
    throw new OAuthError('invalid_request', 'Send the access token once.');
  if (typeof fromBody === 'string') return fromBody;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) throw missingBearerToken(deps.protocol.engine.issuer);
  return match[1];
}

const responses = {
  200: {
    description: 'Claims of the user by granted scope',
    schema: Joi.object({ sub: Joi.string().required(), email: Joi.string(), email_verified: Joi.boolean() })
      .unknown(true)
      .label('UserInfo'),
  },
  400: oauthErrorResponse('invalid_request'),
  401: oauthErrorResponse('invalid_token, with the RFC 6750 WWW-Authenticate challenge'),
  403: oauthErrorResponse('insufficient_scope: the token lacks openid'),
};

const handler: RouteSpec['handler'] = (deps) => async (request, h) =>
  h.response(await userinfo(bearerToken(request, deps), deps.protocol.engine)).header('cache-control', 'no-store');

export const userinfoGetRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'UserInfo endpoint',
  description: 'Bearer access token with the openid scope (RFC 9068 JWT from /oauth2/token).',
  responses,
  handler,
};

export const userinfoPostRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'UserInfo endpoint (POST)',
  description:
    'As GET, with no body or a form body; the token may also come as the access_token form parameter (RFC 6750 §2.2).',
  validate: { payload: Joi.object({ access_token: Joi.string() }).allow(null).label('UserInfoRequest') },
  responses,
  // A POST with the bearer header and no body at all (no content type) reads as an empty form, not as JSON.
  hapiOptions: {
    payload: {
      allow: 'application/x-www-form-urlencoded',
      defaultContentType: 'application/x-www-form-urlencoded',
      failAction: 'error',
    },
  },
  handler,
};
