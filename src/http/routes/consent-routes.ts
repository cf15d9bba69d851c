import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { sessionOf } from '../auth/cookie-session-auth.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';
import { addressOf } from '../client-address.js';

/**
 * The consent page's API (the consent step of src/interaction) as JSON, so that the built-in page and an
 * operator's own front end do the same: read what the application asks for,
 * then post Allow or Deny and follow `redirect_to`.
 */
const returnTo = Joi.string()
  .max(8192)
  .description('The same-origin path back to the authorization request (the return_to of /consent)');

const consentErrors = {
  ...commonErrors,
  400: errorResponse(
    'VALIDATION_ERROR, or INVALID_RETURN_TO: return_to is not a valid authorization request of this server',
  ),
  401: errorResponse('UNAUTHORIZED: Authentication is required to access this resource.'),
};

export const consentGetRoute: RouteSpec = {
  tags: ['Consent'],
  summary: 'What an authorization request asks the signed-in user to consent to',
  validate: { query: Joi.object({ return_to: returnTo.required() }) },
  responses: {
    200: {
      description: 'The application and the scopes it requests, with human descriptions',
      schema: Joi.object({
        client: Joi.object({ client_id: Joi.string().required(), name: Joi.string().required() }).required(),
        redirect_uri: Joi.string()
          .allow(null)
          .required()
          .description(
            'Where the answer will be sent (the page names its host: "You will return to …"); null for a device\'s request',
          ),
        device: Joi.boolean()
          .required()
          .description(
            "A device's request (RFC 8628, the /device page): the page warns to allow it only when the code came from the user's own device",
          ),
        scopes: Joi.array()
          .items(Joi.object({ scope: Joi.string().required(), description: Joi.string().required() }))
          .required(),
        groups: Joi.array()
          .items(Joi.object({ id: Joi.string().required(), name: Joi.string().required() }).label('ConsentGroup'))
          .allow(null)
          .required()
          .description(
            "With the groups scope, the signed-in user's groups the application will see (each once, by name; [] for none); null without it",
          ),
      }).label('ConsentPrompt'),
    },
    ...consentErrors,
  },
  handler: (deps) => async (request, h) => {
    const prompt = await deps.protocol.consent.describe(request.query.return_to, { sub: sessionOf(request).user.sub });
    return h
      .response({
        client: { client_id: prompt.clientId, name: prompt.clientName },
        redirect_uri: prompt.redirectUri,
        device: prompt.device,
        scopes: prompt.scopes,
        groups: prompt.groups,
      })
      .header('cache-control', 'no-store');
  },
};

export const consentPostRoute: RouteSpec = {
  tags: ['Consent'],
  summary: 'Allow or deny an authorization request',
  description:
    'allow records the grant (scopes already granted are kept); deny makes the authorization endpoint answer the client with access_denied. Either way the browser follows `redirect_to`.',
  validate: {
    payload: Joi.object({
      return_to: returnTo.required(),
      decision: Joi.string().valid('allow', 'deny').required(),
    }).label('ConsentDecision'),
  },
  responses: {
    200: {
      description: 'Where the browser goes next: back to the authorization endpoint',
      schema: Joi.object({ redirect_to: Joi.string().required() }).label('ConsentResult'),
    },
    ...consentErrors,
    403: errorResponse('ORIGIN_NOT_ALLOWED: the request came from another origin'),
  },
  handler: (deps) => async (request) => {
    const { return_to, decision } = request.payload as { return_to: string; decision: 'allow' | 'deny' };
    const { redirectTo } = await deps.protocol.consent.decide(
      return_to,
      decision,
      { sub: sessionOf(request).user.sub },
      {
        clientAddress: addressOf(request),
      },
    );
    return { redirect_to: redirectTo };
  },
};
