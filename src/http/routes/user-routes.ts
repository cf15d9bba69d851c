import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { clearSessionCookie, sessionOf } from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';
import { isoDateTime, profileSchema, toProfileBody } from '../schemas/user-schemas.js';
import { payloadOf } from '../payload-of.js';

/**
 * The signed-in user's own account (User tag, docs/http-api.md, "Your own account"): the
 * profile, the password, and deleting the account. The rules live in
 * src/accounts; docs/http-api.md "Your own account" explains the decisions.
 */
/**
 * One line of well-formed text: no C0 or C1 control, no DEL, and no UTF-16
 * surrogate without its partner (the databases would store U+FFFD in its
 * place, so what was answered and what is kept would differ).
 */
const oneLineOfText = /^(?:[^\u0000-\u001F\u007F-\u009F\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

/**
 * A profile name: trimmed, at most 255 characters (the column), one line of
 * text; "" (or only spaces) and null clear the field. Tabs and line
 * breaks pass the server-wide control-character check (free text may hold
 * them) but not this one: a name is shown on one line, and in ID tokens.
 */
const profileText = (description: string) =>
  Joi.string()
    .trim()
    .max(255)
    .pattern(oneLineOfText, 'one line of text')
    .allow('', null)
    .messages({ 'string.pattern.name': '{{#label}} must be one line of text without control characters' })
    .description(`${description}; "" or null clears it`);

const profileResponse = (description: string) => ({
  description,
  schema: Joi.object({ user: profileSchema.required() }).label('ProfileResponse'),
});

const unauthorized = errorResponse('UNAUTHORIZED: Authentication is required to access this resource.');
const notEditable = 'USER_NOT_EDITABLE: This user account cannot be modified. (config-managed: the file owns it)';
const originRefused = 'ORIGIN_NOT_ALLOWED: the request came from another origin';
const tooMany = errorResponse(
  'TOO_MANY_REQUESTS: too many wrong passwords for this account or address (the login rate limit); see Retry-After',
);

/** "" means "not set" (a cleared form field): the profile stores null. */
const orNull = (value: string | null | undefined) => (value === '' ? null : value);

export const userGetRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Your profile',
  description: 'The session user with the profile fields and when the account was created.',
  responses: { 200: profileResponse('The profile'), 401: unauthorized },
  handler: (deps) => async (request, h) => {
    const body = { user: toProfileBody(await deps.admin.userViews.profile(sessionOf(request).user)) };
    return h.response(body).header('cache-control', 'no-store');
  },
};

export const userGroupsRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Your groups',
  description:
    'The groups you are in, read-only: one entry per group and source (`config`: the config file, `database`: an admin, `upstream`: asserted by an upstream provider at your last sign-in through it), ordered by group id, then source; the shape of GET /api/admin/users/{sub}/groups. Applications that ask for the `groups` scope see the ids, each once.',
  responses: {
    200: {
      description: 'Your groups',
      schema: Joi.object({
        groups: Joi.array()
          .items(
            Joi.object({
              id: Joi.string().required().description('The group id: a value of the groups claim'),
              name: Joi.string().required(),
              source: Joi.string().valid('config', 'database', 'upstream').required(),
            }).label('UserGroup'),
          )
          .required(),
      }).label('UserGroupList'),
    },
    401: unauthorized,
  },
  handler: (deps) => async (request, h) => {
    const groups = await deps.admin.userGroups.list(sessionOf(request).user.sub);
    return h.response({ groups }).header('cache-control', 'no-store');
  },
};

export const userUpdateRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Change your profile',
  description:
    'Sets the fields given; absent ones stay, null or "" clears one. `locale` must be one of i18n.locales (compared case-insensitively, stored as configured). ' +
    "A config-managed user's profile comes from the config file: any change answers 403 USER_NOT_EDITABLE. An empty body changes nothing.",
  validate: {
    payload: Joi.object({
      name: profileText('Full name'),
      given_name: profileText('Given name'),
      family_name: profileText('Family name'),
      locale: Joi.string().trim().max(64).allow('', null).description('One of i18n.locales; "" or null clears it'),
    }).label('UpdateProfileRequest'),
  },
  responses: {
    200: profileResponse('The updated profile'),
    ...commonErrors,
    401: unauthorized,
    403: errorResponse(`${notEditable} / ${originRefused}`),
  },
  handler: (deps) => async (request) => {
    const body = request.payload as {
      name?: string | null;
      given_name?: string | null;
      family_name?: string | null;
      locale?: string | null;
    };
    const user = await deps.accounts.profiles.update(sessionOf(request).user, {
      name: orNull(body.name),
      givenName: orNull(body.given_name),
      familyName: orNull(body.family_name),
      locale: orNull(body.locale),
    });
    return { user: toProfileBody(await deps.admin.userViews.profile(user)) };
  },
};

export const userChangePasswordRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Change your password',
  description:
    '`current_password` is required when the user has a password (a user without one sets one without it). ' +
    'Every other session of the user ends, and so do the refresh tokens (and their access tokens) obtained outside this session; this session stays signed in. ' +
    'A wrong current password counts against the login rate limit.',
  validate: {
    payload: Joi.object({
      current_password: Joi.string().min(1).max(1024).description('The password now; required when the user has one'),
      new_password: Joi.string()
        .allow('')
        .max(256)
        .required()
        .description('At least auth.password_min_length characters'),
    }).label('ChangePasswordRequest'),
  },
  responses: {
    204: { description: 'Changed; other sessions and their tokens ended' },
    ...commonErrors,
    400: errorResponse(
      'VALIDATION_ERROR (current_password is required when the user has a password), MALFORMED_JSON, or PASSWORD_TOO_SHORT',
    ),
    401: errorResponse('UNAUTHORIZED (no session), or INVALID_CREDENTIALS: The password is incorrect.'),
    403: errorResponse(`${notEditable} / ${originRefused}`),
    429: tooMany,
  },
  handler: (deps) => async (request, h) => {
    const { session, user } = sessionOf(request);
    const body = request.payload as { current_password?: string; new_password: string };
    await deps.accounts.passwordChange.change({
      user,
      session,
      currentPassword: body.current_password,
      newPassword: body.new_password,
      clientAddress: addressOf(request),
    });
    return h.response().code(204);
  },
};

export const userDeleteRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Delete your account',
  description:
    'Soft-deletes the account at once: every session and token of the user ends, and the session cookie is cleared. Cleanup erases the account after ' +
    'account_deletion.grace_period_days (`erase_after`). Users with a password confirm with it; users without one need a sign-in within the last 10 minutes.',
  validate: {
    payload: Joi.object({
      password: Joi.string().min(1).max(1024).description('Your password; required when you have one'),
    })
      .allow(null)
      .label('DeleteAccountRequest'),
  },
  responses: {
    200: {
      description: 'The soft-deleted account',
      schema: Joi.object({
        user: profileSchema
          .keys({
            deleted_at: isoDateTime.required().description('When the account was deleted (ISO 8601 UTC)'),
            erase_after: isoDateTime.required().description('From then on, cleanup erases the account for good'),
          })
          .label('DeletedProfile')
          .required(),
      }).label('DeleteAccountResponse'),
    },
    ...commonErrors,
    401: errorResponse(
      'UNAUTHORIZED (no session), INVALID_CREDENTIALS: The password is incorrect., or REAUTHENTICATION_REQUIRED: a user without a password signed in more than 10 minutes ago',
    ),
    403: errorResponse(
      `ACCOUNT_DELETION_DISABLED (account_deletion.enabled is false) / ${notEditable} / ${originRefused}`,
    ),
    429: tooMany,
  },
  handler: (deps) => async (request, h) => {
    const { session, user } = sessionOf(request);
    const body = payloadOf(request) as { password?: string };
    const deleted = await deps.accounts.accountDeletion.delete({
      user,
      session,
      password: body.password,
      clientAddress: addressOf(request),
    });
    clearSessionCookie(h);
    const profile = toProfileBody(await deps.admin.userViews.profile(deleted.user));
    return {
      user: {
        ...profile,
        deleted_at: new Date(deleted.user.deletedAt as number).toISOString(),
        erase_after: new Date(deleted.eraseAfter).toISOString(),
      },
    };
  },
};
