import Joi from 'joi';
import type { Request } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import { handleTokenRequest, readTokenRequest, type TokenForm } from '../../oidc/token/index.js';
import { revokeToken } from '../../oidc/revocation/index.js';
import { introspectToken } from '../../oidc/introspection/index.js';
import { readClientCredentials } from '../../clients/index.js';
import { clientAuthParams, formParam, noStoreHeaders, oauthErrorResponse } from '../schemas/oauth-schemas.js';
import { payloadOf } from '../payload-of.js';

/**
 * The client-authenticated protocol endpoints: POST /oauth2/token
 * (RFC 6749 §3.2), /oauth2/revoke (RFC 7009), /oauth2/introspect
 * (RFC 7662). Bodies are application/x-www-form-urlencoded; errors are
 * OAuthError JSON (src/http/render-error.ts), invalid_client with 401 and
 * the Basic challenge.
 */
const form = { payload: { allow: 'application/x-www-form-urlencoded' } } as const;
const authorizationOf = (request: Request) => request.headers.authorization as string | undefined;
const clientAuthErrors = {
  400: oauthErrorResponse('invalid_request and the other RFC 6749 §5.2 errors'),
  401: oauthErrorResponse('invalid_client (with WWW-Authenticate: Basic when Basic was used)'),
};

const tokenResponseSchema = Joi.object({
  access_token: Joi.string().required().description('RFC 9068 JWT access token (typ at+jwt)'),
  token_type: Joi.string().valid('Bearer').required(),
  expires_in: Joi.number().integer().required(),
  scope: Joi.string().description('The granted scopes; absent when none were granted (RFC 6749 §3.3)'),
  id_token: Joi.string().description('When openid was granted'),
  refresh_token: Joi.string().description('When offline_access was granted and the client may refresh'),
}).label('TokenResponse');

export const tokenRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'Token endpoint',
  description:
    'Grants: authorization_code (with PKCE), refresh_token (rotating), client_credentials, urn:ietf:params:oauth:grant-type:device_code (RFC 8628). Client authentication: client_secret_basic, client_secret_post, none. See docs/oidc.md.',
  validate: {
    payload: Joi.object({
      grant_type: formParam(
        'authorization_code, refresh_token, client_credentials or urn:ietf:params:oauth:grant-type:device_code',
      ),
      code: formParam('authorization_code: the code'),
      redirect_uri: formParam('authorization_code: the redirect_uri of the authorization request'),
      code_verifier: formParam('authorization_code: the RFC 7636 verifier'),
      refresh_token: formParam('refresh_token: the refresh token'),
      device_code: formParam(
        'urn:ietf:params:oauth:grant-type:device_code: the device_code of the device authorization',
      ),
      scope: formParam('refresh_token: a narrower scope; client_credentials: requested scopes'),
      ...clientAuthParams,
    })
      .unknown(true)
      .label('TokenRequest'),
  },
  responses: { 200: { description: 'Tokens (RFC 6749 §5.1)', schema: tokenResponseSchema }, ...clientAuthErrors },
  // The hot path: the response is built by the endpoint's typed TokenResponse,
  // so it is not validated again on the way out (the schema documents it).
  hapiOptions: { ...form, response: { sample: 0 } },
  handler: (deps) => async (request, h) => {
    const tokenRequest = readTokenRequest(payloadOf(request) as TokenForm, authorizationOf(request));
    const response = await handleTokenRequest(tokenRequest, deps.protocol.engine);
    const reply = h.response(response);
    for (const [name, value] of Object.entries(noStoreHeaders)) reply.header(name, value);
    return reply;
  },
};

export const revokeRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'Token revocation (RFC 7009)',
  description:
    'A refresh token revokes its whole grant; an access token is revoked until it expires. Unknown tokens also answer 200.',
  validate: {
    payload: Joi.object({
      token: Joi.string().required().description('The token to revoke'),
      token_type_hint: formParam('access_token or refresh_token (optional)'),
      ...clientAuthParams,
    }).label('RevocationRequest'),
  },
  responses: {
    200: {
      description: 'Revoked, or nothing to revoke: an empty JSON object',
      schema: Joi.object({}).label('RevocationResponse'),
    },
    ...clientAuthErrors,
  },
  hapiOptions: form,
  handler: (deps) => async (request, h) => {
    const p = request.payload as Record<string, string | undefined>;
    const credentials = readClientCredentials(authorizationOf(request), p.client_id, p.client_secret);
    await revokeToken({ token: p.token ?? '', tokenTypeHint: p.token_type_hint, credentials }, deps.protocol.engine);
    // RFC 7009 §2.2 leaves the body open; clients that parse every answer as JSON get an empty object.
    return h.response({}).code(200).header('cache-control', 'no-store');
  },
};

export const introspectRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'Token introspection (RFC 7662)',
  description: 'For confidential clients. Inactive, unknown or foreign refresh tokens answer { "active": false }.',
  validate: {
    payload: Joi.object({
      token: Joi.string().required().description('The token to describe'),
      token_type_hint: formParam('access_token or refresh_token (optional)'),
      ...clientAuthParams,
    }).label('IntrospectionRequest'),
  },
  responses: {
    200: {
      description: 'RFC 7662 §2.2 response',
      schema: Joi.object({ active: Joi.boolean().required() }).unknown(true).label('IntrospectionResponse'),
    },
    ...clientAuthErrors,
  },
  hapiOptions: form,
  handler: (deps) => async (request, h) => {
    const p = request.payload as Record<string, string | undefined>;
    const credentials = readClientCredentials(authorizationOf(request), p.client_id, p.client_secret);
    return h
      .response(await introspectToken({ token: p.token ?? '', credentials }, deps.protocol.engine))
      .header('cache-control', 'no-store');
  },
};
