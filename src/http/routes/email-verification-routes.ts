import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { mailRequestRoute } from './mail-request-route.js';
import { addressOf } from '../client-address.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';
import { sessionUserSchema, toSessionUserBody } from '../schemas/user-schemas.js';
import { linkTokenSchema, originRefused } from '../schemas/account-schemas.js';

/** E-mail verification (docs/http-api.md, "Self-service accounts"): src/accounts/email-verification.ts. */
export const verifyEmailRoute: RouteSpec = {
  checkOrigin: true,
  tags: ['Auth'],
  summary: 'Verify an e-mail address with the token of the verification mail',
  description:
    'The token works once, for 24 hours, and only while the user still has the address it was mailed to. Does not sign in.',
  validate: { payload: Joi.object({ token: linkTokenSchema.required() }).label('VerifyEmailRequest') },
  responses: {
    200: {
      description: 'Verified: the user',
      schema: Joi.object({ user: sessionUserSchema.required() }).label('VerifyEmailResponse'),
    },
    ...commonErrors,
    400: errorResponse('VALIDATION_ERROR or INVALID_TOKEN: the link is invalid, has expired or has already been used'),
    403: originRefused,
  },
  handler: (deps) => async (request) => {
    const { token } = request.payload as { token: string };
    const user = await deps.accounts.emailVerification.verify(token, {
      clientAddress: addressOf(request),
    });
    return { user: toSessionUserBody(await deps.admin.userViews.sessionUser(user)) };
  },
};

export const resendVerificationRoute = mailRequestRoute({
  label: 'ResendVerificationRequest',
  summary: 'Send the verification mail again',
  description:
    '202 always, whether or not the address belongs to an account that needs verifying (nothing is sent then): the answer and its timing do not tell which addresses are registered. Rate limited per e-mail and per client address (security.login_rate_limit): 429 with Retry-After.',
  accepted: 'Accepted: a mail is sent if the address needs verifying',
  send: (deps) => (input) => deps.accounts.emailVerification.resend(input),
});
