import Joi from 'joi';
import type { Request } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import { sessionOf } from '../auth/cookie-session-auth.js';
import { adminErrors } from '../schemas/error-schema.js';
import { isoDateTime, subSchema } from '../schemas/user-schemas.js';

/**
 * GET /api/admin/locked-users (docs/http-api.md, "Login rate limit"): the lock state of a page of
 * users, beside the admin user whose shape the API fixes. The rule lives in src/admin/unlock-account.ts.
 */
export const adminLockedUsersRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'Which users the login rate limit blocks now',
  description:
    'Of the users named by `sub` (repeat it, up to 100: a page of `GET /api/admin/users`), those whose account is blocked by failed sign-in attempts now, with the end of the block. Users not blocked, and subs no user has, are left out. `POST /api/admin/users/{sub}/unlock` lifts a block.',
  validate: {
    query: Joi.object({
      sub: Joi.array().items(subSchema).single().min(1).max(100).required().description('Subject identifiers'),
    }),
  },
  responses: {
    200: {
      description: 'The blocked users among those asked for',
      schema: Joi.object({
        users: Joi.array()
          .items(
            Joi.object({
              sub: subSchema.required(),
              locked_until: isoDateTime.required().description('When the block ends (ISO 8601 UTC)'),
            }).label('LockedUser'),
          )
          .required(),
      }).label('LockedUserList'),
    },
    ...adminErrors,
  },
  handler: (deps) => async (request: Request) => {
    const caller = sessionOf(request).user;
    const locked = await deps.admin.unlock.lockedUsers(caller, (request.query as { sub: string[] }).sub);
    return { users: locked.map((user) => ({ sub: user.sub, locked_until: new Date(user.lockedUntil).toISOString() })) };
  },
};
