import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { sessionOf } from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';

/**
 * The OAuth Connect API (docs/http-api.md, "Upstream identity providers"): the signed-in user's connections to
 * upstream identity providers, as the "Connected providers" section of
 * /account lists them, and disconnecting one. Connecting is a navigation:
 * GET /api/auth/providers/{id}/authorize?intent=link.
 */
const sessionErrors = {
  ...commonErrors,
  401: errorResponse('UNAUTHORIZED: Authentication is required to access this resource.'),
};

const connectionSchema = Joi.object({
  provider_id: Joi.string().required(),
  type: Joi.string()
    .valid('github', 'google', 'apple', 'generic_oauth')
    .allow(null)
    .required()
    .description('null when the provider is no longer in the config'),
  display_name: Joi.string().required(),
  email: Joi.string().allow(null).required().description("The upstream account's address when it was linked"),
  linked_at: Joi.string().isoDate().required().description('ISO 8601, UTC'),
  available: Joi.boolean()
    .required()
    .description(
      'False while the provider is disabled or removed from the config: the connection waits for it to return',
    ),
}).label('Connection');

export const connectionsListRoute: RouteSpec = {
  tags: ['OAuth Connect'],
  summary: "The signed-in user's connections to upstream identity providers",
  responses: {
    200: {
      description: 'Connections, ordered by provider_id',
      schema: Joi.object({ connections: Joi.array().items(connectionSchema).required() }).label('ConnectionList'),
    },
    ...sessionErrors,
  },
  handler: (deps) => async (request, h) => {
    const connections = await deps.federation.connections.list(sessionOf(request).user.sub);
    const body = {
      connections: connections.map((c) => ({
        provider_id: c.providerId,
        type: c.type,
        display_name: c.displayName,
        email: c.email,
        linked_at: new Date(c.linkedAt).toISOString(),
        available: c.available,
      })),
    };
    return h.response(body).header('cache-control', 'no-store');
  },
};

export const connectionDeleteRoute: RouteSpec = {
  tags: ['OAuth Connect'],
  summary: 'Disconnect an upstream identity provider',
  description:
    'Refused with 409 LAST_SIGN_IN_METHOD when the account would be left without a way in: no password, no passkey, and no other connection to a provider that is enabled now.',
  validate: {
    params: Joi.object({ provider_id: Joi.string().min(1).max(255).required().description('identity_providers[].id') }),
  },
  responses: {
    204: { description: 'Disconnected' },
    ...sessionErrors,
    403: errorResponse('ORIGIN_NOT_ALLOWED: the request came from another origin'),
    404: errorResponse('CONNECTION_NOT_FOUND: No connection to this provider exists for your account.'),
    409: errorResponse(
      'LAST_SIGN_IN_METHOD: This connection is your only way to sign in. Set a password or connect another provider first.',
    ),
  },
  handler: (deps) => async (request, h) => {
    await deps.federation.connections.remove(
      sessionOf(request).user,
      (request.params as { provider_id: string }).provider_id,
      {
        clientAddress: addressOf(request),
      },
    );
    return h.response().code(204);
  },
};
