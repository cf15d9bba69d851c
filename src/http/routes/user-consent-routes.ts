import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { sessionOf } from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';

// The signed-in user's consents (Consent tag): what the "Apps with access" section of /account lists and withdraws.

const sessionErrors = {
  ...commonErrors,
  401: errorResponse('UNAUTHORIZED: Authentication is required to access this resource.'),
};

const consentSchema = Joi.object({
  client_id: Joi.string().required(),
  client_name: Joi.string().required(),
  scopes: Joi.array().items(Joi.string()).required(),
  granted_at: Joi.string()
    .isoDate()
    .required()
    .description('When the user last allowed the application (ISO 8601, UTC)'),
}).label('UserConsent');

export const userConsentsListRoute: RouteSpec = {
  tags: ['Consent'],
  summary: 'The applications the signed-in user has given access',
  responses: {
    200: {
      description: 'Consents, ordered by client_id',
      schema: Joi.object({ consents: Joi.array().items(consentSchema).required() }).label('UserConsentList'),
    },
    ...sessionErrors,
  },
  handler: (deps) => async (request, h) => {
    const consents = await deps.accounts.userConsents.list(sessionOf(request).user.sub);
    const body = {
      consents: consents.map((consent) => ({
        client_id: consent.clientId,
        client_name: consent.clientName,
        scopes: consent.scopes,
        granted_at: new Date(consent.grantedAt).toISOString(),
      })),
    };
    return h.response(body).header('cache-control', 'no-store');
  },
};

export const userConsentRevokeRoute: RouteSpec = {
  tags: ['Consent'],
  summary: "Withdraw an application's access",
  description:
    'Deletes the consent and revokes every grant the user gave the application: its refresh and access tokens stop at once, and the next authorization asks for consent again.',
  validate: {
    params: Joi.object({
      client_id: Joi.string().min(1).max(255).required().description('The application (client_id)'),
    }),
  },
  responses: {
    204: { description: 'Withdrawn' },
    ...sessionErrors,
    403: errorResponse('ORIGIN_NOT_ALLOWED: the request came from another origin'),
    404: errorResponse('CONSENT_NOT_FOUND: You have not given this application access.'),
  },
  handler: (deps) => async (request, h) => {
    await deps.accounts.userConsents.revoke(
      sessionOf(request).user.sub,
      (request.params as { client_id: string }).client_id,
      {
        clientAddress: addressOf(request),
      },
    );
    return h.response().code(204);
  },
};
