import Joi from 'joi';
import type { Request } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import { sessionOf } from '../auth/cookie-session-auth.js';
import { adminErrors, errorResponse } from '../schemas/error-schema.js';
import { subSchema } from '../schemas/user-schemas.js';

/** POST /api/admin/users/{sub}/unlock (docs/http-api.md, "Login rate limit"). The rule lives in src/admin/unlock-account.ts. */
export const adminUnlockUserRoute: RouteSpec = {
  tags: ['Admin'],
  summary: "Clear a user's failed sign-in attempts",
  description:
    'The account can sign in again at once, before the rate-limit window ends. Counters of client addresses are not touched (`idp ratelimit clear --address`). Unlocking an account that is not blocked changes nothing.',
  validate: { params: Joi.object({ sub: subSchema.required().description('Subject identifier') }) },
  responses: {
    204: { description: 'Unlocked' },
    ...adminErrors,
    404: errorResponse('USER_NOT_FOUND: User not found.'),
  },
  handler: (deps) => async (request: Request, h) => {
    const caller = sessionOf(request).user;
    await deps.admin.unlock.unlock(caller, (request.params as { sub: string }).sub);
    return h.response().code(204);
  },
};
