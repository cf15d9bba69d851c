import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { mailRequestRoute } from './mail-request-route.js';
import { addressOf } from '../client-address.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';
import { linkTokenSchema, newPasswordSchema, originRefused } from '../schemas/account-schemas.js';

/** A forgotten password (docs/http-api.md, "Self-service accounts"): src/accounts/password-reset.ts. */
export const forgotPasswordRoute = mailRequestRoute({
  label: 'ForgotPasswordRequest',
  summary: 'Mail a password reset link',
  description:
    '202 always: a link (valid 1 hour) goes only to a live database-managed account with this address (config-managed users get their password from git), and neither the answer nor its timing tells whether one exists. Rate limited per e-mail and per client address (security.login_rate_limit): 429 with Retry-After.',
  accepted: 'Accepted: a mail is sent if the address belongs to such an account',
  send: (deps) => (input) => deps.accounts.passwordReset.forgot(input),
});

export const resetPasswordRoute: RouteSpec = {
  checkOrigin: true,
  tags: ['Auth'],
  summary: 'Set a new password with the token of the reset mail',
  description:
    'The token works once. The new password ends every session and refresh token of the user, voids their other reset links, and marks the address verified (the link proved it). Does not sign in.',
  validate: {
    payload: Joi.object({ token: linkTokenSchema.required(), password: newPasswordSchema.required() }).label(
      'ResetPasswordRequest',
    ),
  },
  responses: {
    204: { description: 'The password is set' },
    ...commonErrors,
    400: errorResponse(
      'VALIDATION_ERROR, PASSWORD_TOO_SHORT, or INVALID_TOKEN: the link is invalid, has expired or has already been used',
    ),
    403: originRefused,
  },
  handler: (deps) => async (request, h) => {
    const { token, password } = request.payload as { token: string; password: string };
    await deps.accounts.passwordReset.reset({
      token,
      password,
      clientAddress: addressOf(request),
    });
    return h.response().code(204);
  },
};
