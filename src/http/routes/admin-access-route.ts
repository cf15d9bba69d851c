import Joi from 'joi';
import type { Request } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import { sessionOf } from '../auth/cookie-session-auth.js';
import { adminErrors, errorResponse } from '../schemas/error-schema.js';
import { subSchema } from '../schemas/user-schemas.js';

/** GET /api/admin/clients/{client_id}/access (docs/http-api.md, "Groups and access"). The rule lives in src/access; the lookups in src/admin/admin-access-check.ts. */
const caller = (request: Request) => sessionOf(request).user;

export const adminCheckAccessRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'Whether a user may use a client, and why',
  description:
    "Decided by the client's `access` rule over the user's groups from every source, as at sign-in. `reasons` says which group or rule decided, one sentence each.",
  validate: {
    params: Joi.object({ client_id: Joi.string().min(1).max(255).required().description('The client (client_id)') }),
    query: Joi.object({ sub: subSchema.required().description('Subject identifier of the user') }),
  },
  responses: {
    200: {
      description: 'The decision',
      schema: Joi.object({
        allowed: Joi.boolean().required(),
        reasons: Joi.array().items(Joi.string()).required(),
      }).label('AdminAccessDecision'),
    },
    ...adminErrors,
    404: errorResponse('CLIENT_NOT_FOUND: Client not found. / USER_NOT_FOUND: User not found.'),
  },
  handler: (deps) => async (request) => {
    const decision = await deps.admin.access.check(
      caller(request),
      (request.params as { client_id: string }).client_id,
      (request.query as { sub: string }).sub,
    );
    return { allowed: decision.allowed, reasons: decision.reasons };
  },
};
