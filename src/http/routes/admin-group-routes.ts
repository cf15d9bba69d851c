import Joi from 'joi';
import type { Request } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import { sessionOf } from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { adminErrors, errorResponse } from '../schemas/error-schema.js';
import { adminUserSchema, paginationSchema, subSchema, toAdminUserBody } from '../schemas/user-schemas.js';

/**
 * Groups and their members in the admin API (docs/http-api.md, "Groups and
 * access"). Groups come from the config file; the API adds and removes the
 * memberships of database-managed users. Rules live in
 * src/admin/admin-groups-service.ts.
 */
const caller = (request: Request) => sessionOf(request).user;
const requestContext = (request: Request) => ({ clientAddress: addressOf(request) });

// The config schema's group id (`groups[].id`): a value of the `groups` claim.
const groupIdSchema = Joi.string()
  .pattern(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'group id')
  .description('Group id: [a-z0-9][a-z0-9._-]{0,63}');
const groupParams = Joi.object({ id: groupIdSchema.required() });
const memberParams = Joi.object({
  id: groupIdSchema.required(),
  sub: subSchema.required().description('Subject identifier'),
});

const groupNotFound = errorResponse('GROUP_NOT_FOUND: Group not found.');
const groupOrUserNotFound = errorResponse('GROUP_NOT_FOUND: Group not found. / USER_NOT_FOUND: User not found.');
const notEditable = errorResponse(
  'FORBIDDEN: You do not have permission to access this resource. / USER_NOT_EDITABLE: This user account cannot be modified.',
);

export const adminListGroupsRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'List groups',
  description:
    'Every group of the config file, ordered by id, with how many live users are in it from any source (config, database, upstream), each counted once.',
  responses: {
    200: {
      description: 'The groups',
      schema: Joi.object({
        groups: Joi.array()
          .items(
            Joi.object({
              id: Joi.string().required(),
              name: Joi.string().required(),
              description: Joi.string().allow(null).required(),
              member_count: Joi.number().integer().min(0).required(),
            }).label('AdminGroup'),
          )
          .required(),
      }).label('AdminGroupList'),
    },
    ...adminErrors,
  },
  handler: (deps) => async (request) => ({
    groups: (await deps.admin.groups.list(caller(request))).map((group) => ({
      id: group.id,
      name: group.name,
      description: group.description,
      member_count: group.memberCount,
    })),
  }),
};

export const adminListGroupMembersRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'List the members of a group',
  description:
    'The live users in the group from any source, each once, ordered by e-mail, then sub. Soft-deleted users keep their memberships but are not listed.',
  validate: {
    params: groupParams,
    query: Joi.object({
      page: Joi.number().integer().min(1).default(1),
      page_size: Joi.number().integer().min(1).max(100).default(20),
    }),
  },
  responses: {
    200: {
      description: 'One page of members',
      schema: Joi.object({
        users: Joi.array().items(adminUserSchema).required(),
        pagination: paginationSchema.required(),
      }).label('AdminGroupMemberList'),
    },
    ...adminErrors,
    404: groupNotFound,
  },
  handler: (deps) => async (request) => {
    const q = request.query as { page: number; page_size: number };
    const result = await deps.admin.groups.members(caller(request), (request.params as { id: string }).id, {
      page: q.page,
      pageSize: q.page_size,
    });
    return {
      users: result.users.map(toAdminUserBody),
      pagination: { page: q.page, page_size: q.page_size, total: result.total },
    };
  },
};

export const adminAddGroupMemberRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'Add a database-managed user to a group',
  description:
    "Adds a membership of source `database` and records `group.member_added`. Idempotent: a membership already there answers 204 and records nothing. Config-managed and soft-deleted users answer 403 USER_NOT_EDITABLE: a config user's groups come from the file only.",
  validate: { params: memberParams },
  responses: {
    204: { description: 'The user is in the group' },
    ...adminErrors,
    403: notEditable,
    404: groupOrUserNotFound,
  },
  handler: (deps) => async (request, h) => {
    const { id, sub } = request.params as { id: string; sub: string };
    await deps.admin.groups.addMember(caller(request), id, sub, requestContext(request));
    return h.response().code(204);
  },
};

export const adminRemoveGroupMemberRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'Remove a database-managed user from a group',
  description:
    'Removes the membership of source `database` and records `group.member_removed`. 404 MEMBER_NOT_FOUND when there is none: the user is not in the group, or is in it only through the config file or an upstream provider, which the API cannot change.',
  validate: { params: memberParams },
  responses: {
    204: { description: 'Removed' },
    ...adminErrors,
    403: notEditable,
    404: errorResponse(
      'GROUP_NOT_FOUND: Group not found. / USER_NOT_FOUND: User not found. / MEMBER_NOT_FOUND: The user is not a member of this group.',
    ),
  },
  handler: (deps) => async (request, h) => {
    const { id, sub } = request.params as { id: string; sub: string };
    await deps.admin.groups.removeMember(caller(request), id, sub, requestContext(request));
    return h.response().code(204);
  },
};

export const adminUserGroupsRoute: RouteSpec = {
  tags: ['Admin'],
  summary: "A user's groups, with the source of each membership",
  description:
    'One entry per group and source (`config`: the file, `database`: the admin API, `upstream`: asserted by an upstream provider at sign-in), ordered by group id, then source. Soft-deleted users too.',
  validate: { params: Joi.object({ sub: subSchema.required().description('Subject identifier') }) },
  responses: {
    200: {
      description: "The user's groups",
      schema: Joi.object({
        groups: Joi.array()
          .items(
            Joi.object({
              id: Joi.string().required(),
              name: Joi.string().required(),
              source: Joi.string().valid('config', 'database', 'upstream').required(),
            }).label('AdminUserGroup'),
          )
          .required(),
      }).label('AdminUserGroupList'),
    },
    ...adminErrors,
    404: errorResponse('USER_NOT_FOUND: User not found.'),
  },
  handler: (deps) => async (request) => ({
    groups: await deps.admin.groups.groupsOf(caller(request), (request.params as { sub: string }).sub),
  }),
};
