import Joi from 'joi';
import type { Request } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import { sessionOf } from '../auth/cookie-session-auth.js';
import { adminErrors, errorResponse } from '../schemas/error-schema.js';
import { addressOf } from '../client-address.js';
import {
  adminUserSchema,
  emailSchema,
  paginationSchema,
  sessionUserSchema,
  subSchema,
  toAdminUserBody,
  toSessionUserBody,
} from '../schemas/user-schemas.js';

/** The admin API (docs/http-api.md, "Admin API": shapes, errors, limits). Rules live in src/admin. */
const caller = (request: Request) => sessionOf(request).user;
const requestContext = (request: Request) => ({
  clientAddress: addressOf(request),
});

const userResponse = (description: string) => ({
  description,
  schema: Joi.object({ user: adminUserSchema.required() }).label('AdminUserResponse'),
});
const subParams = Joi.object({ sub: subSchema.required().description('Subject identifier') });
const notFound = { 404: errorResponse('USER_NOT_FOUND: User not found.') };
const notEditable = errorResponse(
  'FORBIDDEN: You do not have permission to access this resource. / USER_NOT_EDITABLE: This user account cannot be modified.',
);
const emailTaken = { 409: errorResponse('EMAIL_ALREADY_EXISTS: The provided email is already registered.') };

export const adminMeRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'The current admin session identity',
  responses: {
    200: {
      description: 'The session user',
      schema: Joi.object({ user: sessionUserSchema.required() }).label('AdminMeResponse'),
    },
    ...adminErrors,
  },
  handler: (deps) => async (request) => ({
    user: toSessionUserBody(await deps.admin.userViews.sessionUser(caller(request))),
  }),
};

export const adminListUsersRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'List users',
  description:
    '`query` matches a case-insensitive substring of the e-mail or the sub. Soft-deleted users are left out unless `include_deleted` is true. Ordered by e-mail, then sub.',
  validate: {
    query: Joi.object({
      query: Joi.string().allow('').max(320).description('Search text: case-insensitive substring of e-mail or sub'),
      page: Joi.number().integer().min(1).default(1),
      page_size: Joi.number().integer().min(1).max(100).default(20),
      include_deleted: Joi.boolean().default(false).description('Include soft-deleted users'),
      managed_by: Joi.string().valid('database', 'config'),
      role: Joi.string().valid('user', 'admin'),
    }),
  },
  responses: {
    200: {
      description: 'One page of users',
      schema: Joi.object({
        users: Joi.array().items(adminUserSchema).required(),
        pagination: paginationSchema.required(),
      }).label('AdminUserList'),
    },
    ...adminErrors,
  },
  handler: (deps) => async (request) => {
    const q = request.query as {
      query?: string;
      page: number;
      page_size: number;
      include_deleted: boolean;
      managed_by?: 'database' | 'config';
      role?: 'user' | 'admin';
    };
    const result = await deps.admin.users.list(caller(request), {
      query: q.query || undefined,
      page: q.page,
      pageSize: q.page_size,
      includeDeleted: q.include_deleted,
      managedBy: q.managed_by,
      role: q.role,
    });
    return {
      users: result.users.map(toAdminUserBody),
      pagination: { page: q.page, page_size: q.page_size, total: result.total },
    };
  },
};

export const adminCreateUserRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'Create a database-managed user',
  description: 'The sub is a random UUID; the password is stored as an argon2id hash.',
  validate: {
    payload: Joi.object({
      email: emailSchema.required(),
      password: Joi.string().min(1).max(256).required(),
      role: Joi.string().valid('user', 'admin').default('user'),
      email_verified: Joi.boolean().default(false),
    }).label('CreateUserRequest'),
  },
  responses: {
    201: userResponse('Created'),
    200: userResponse('The user'),
    ...adminErrors,
    403: notEditable,
    ...emailTaken,
  },
  handler: (deps) => async (request, h) => {
    const body = request.payload as {
      email: string;
      password: string;
      role: 'user' | 'admin';
      email_verified: boolean;
    };
    const user = await deps.admin.users.create(
      caller(request),
      {
        email: body.email,
        password: body.password,
        role: body.role,
        emailVerified: body.email_verified,
      },
      requestContext(request),
    );
    return h.response({ user: toAdminUserBody(user) }).code(201);
  },
};

export const adminGetUserRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'Get a user',
  description: 'Soft-deleted users are returned too, with deleted_at set.',
  validate: { params: subParams },
  responses: { 200: userResponse('The user'), ...adminErrors, 403: notEditable, ...notFound },
  handler: (deps) => async (request) => ({
    user: toAdminUserBody(await deps.admin.users.get(caller(request), (request.params as { sub: string }).sub)),
  }),
};

export const adminUpdateUserRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'Update a database-managed user',
  description:
    'Config-managed and soft-deleted users, and an admin changing their own role, answer 403 USER_NOT_EDITABLE. An empty body changes nothing.',
  validate: {
    params: subParams,
    payload: Joi.object({
      email: emailSchema,
      role: Joi.string().valid('user', 'admin'),
      email_verified: Joi.boolean(),
    }).label('UpdateUserRequest'),
  },
  responses: { 200: userResponse('The updated user'), ...adminErrors, 403: notEditable, ...notFound, ...emailTaken },
  handler: (deps) => async (request) => {
    const body = request.payload as { email?: string; role?: 'user' | 'admin'; email_verified?: boolean };
    const user = await deps.admin.users.update(
      caller(request),
      (request.params as { sub: string }).sub,
      {
        email: body.email,
        role: body.role,
        emailVerified: body.email_verified,
      },
      requestContext(request),
    );
    return { user: toAdminUserBody(user) };
  },
};

export const adminDeleteUserRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'Soft-delete a database-managed user',
  description:
    "Sets deleted_at and revokes the user's sessions at once. Deleting an already deleted user returns it unchanged; deleting yourself answers 403 USER_NOT_EDITABLE.",
  validate: { params: subParams },
  responses: { 200: userResponse('The soft-deleted user'), ...adminErrors, 403: notEditable, ...notFound },
  handler: (deps) => async (request) => ({
    user: toAdminUserBody(
      await deps.admin.users.delete(caller(request), (request.params as { sub: string }).sub, requestContext(request)),
    ),
  }),
};

export const adminRestoreUserRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'Restore a soft-deleted database-managed user',
  description:
    'Undoes a soft delete within `account_deletion.grace_period_days`: the user can sign in again (their sessions stay ended). A user that is not deleted answers 409 USER_NOT_DELETED; one whose grace period has ended (erased at the next cleanup) 409 RESTORE_PERIOD_ENDED; a config-managed user 403 USER_NOT_EDITABLE (the file brings it back); an e-mail another live user holds by now 409 EMAIL_ALREADY_EXISTS.',
  validate: { params: subParams },
  responses: {
    200: userResponse('The restored user'),
    ...adminErrors,
    403: notEditable,
    ...notFound,
    409: errorResponse(
      'USER_NOT_DELETED: This user account is not deleted. / RESTORE_PERIOD_ENDED: The grace period of this deleted user account has ended. / EMAIL_ALREADY_EXISTS: The provided email is already registered.',
    ),
  },
  handler: (deps) => async (request) => ({
    user: toAdminUserBody(
      await deps.admin.users.restore(caller(request), (request.params as { sub: string }).sub, requestContext(request)),
    ),
  }),
};

export const adminResetSecondFactorsRoute: RouteSpec = {
  tags: ['Admin'],
  summary: "Remove a user's second factors",
  description:
    "For a user who lost their device: removes the authenticator app, the recovery codes and the passkeys, and ends the user's sessions. Config-managed users too: these credentials are the user's own. Their next sign-in asks for enrolment when a factor is required.",
  validate: { params: subParams },
  responses: { 204: { description: 'Removed' }, ...adminErrors, ...notFound },
  handler: (deps) => async (request, h) => {
    await deps.admin.users.resetSecondFactors(
      caller(request),
      (request.params as { sub: string }).sub,
      requestContext(request),
    );
    return h.response().code(204);
  },
};
