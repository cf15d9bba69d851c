import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { readClientCredentials } from '../../clients/index.js';
import { pushAuthorizationRequest } from '../../oidc/par/index.js';
import type { RawAuthorizationParams } from '../../oidc/authorize/index.js';
import { clientAuthParams, noStoreHeaders, oauthErrorResponse } from '../schemas/oauth-schemas.js';
import { payloadOf } from '../payload-of.js';

/**
 * POST /oauth2/par (RFC 9126): the authorization parameters as a form,
 * with client authentication as at the token endpoint. Every other
 * parameter is a string or a repeated list here, so that the engine
 * answers a repetition with invalid_request (RFC 6749 §3.1). The body is
 * limited like every body (64 KiB): a larger one is invalid_request.
 */
export const parRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'Pushed authorization request (RFC 9126)',
  description:
    'The parameters of an authorization request, checked as /oauth2/authorize checks them, stored for 60 seconds under a request_uri that /oauth2/authorize?client_id=…&request_uri=… uses once. See docs/oidc.md.',
  validate: {
    payload: Joi.object({ ...clientAuthParams })
      .pattern(Joi.string(), Joi.alternatives(Joi.string().allow(''), Joi.array().items(Joi.string().allow(''))))
      .label('PushedAuthorizationRequest'),
  },
  responses: {
    201: {
      description: 'Stored (RFC 9126 §2.2)',
      schema: Joi.object({
        request_uri: Joi.string().required().description('urn:ietf:params:oauth:request_uri:…, good once'),
        expires_in: Joi.number().integer().required().description('Seconds the request_uri is good for'),
      }).label('PushedAuthorizationResponse'),
    },
    400: oauthErrorResponse('invalid_request, invalid_scope, unsupported_response_type, request_not_supported…'),
    401: oauthErrorResponse('invalid_client (with WWW-Authenticate: Basic when Basic was used)'),
  },
  hapiOptions: { payload: { allow: 'application/x-www-form-urlencoded' } },
  handler: (deps) => async (request, h) => {
    const params = payloadOf(request) as RawAuthorizationParams;
    // The payload schema lets client_id and client_secret through only as single strings.
    const { client_id: clientId, client_secret: clientSecret } = params as Record<string, string | undefined>;
    const credentials = readClientCredentials(
      request.headers.authorization as string | undefined,
      clientId,
      clientSecret,
    );
    const response = await pushAuthorizationRequest(
      { params, credentials },
      { authorize: deps.protocol.authorize, clientAuthentication: deps.protocol.engine },
    );
    const reply = h.response(response).code(201);
    for (const [name, value] of Object.entries(noStoreHeaders)) reply.header(name, value);
    return reply;
  },
};
