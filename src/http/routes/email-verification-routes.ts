import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { clientAddress } from '../client-address.js';
import { requestLocale } from '../request-locale.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';
import { emailSchema, sessionUserSchema, toSessionUserBody } from '../schemas/user-schemas.js';
import { emailDisabledResponse, linkTokenSchema, localeQuery, originRefused, tooManyRequestsResponse } from '../schemas/account-schemas.js';

/** E-mail verification (DESIGN.md 11): src/accounts/email-verification.ts. */
export const verifyEmailRoute: RouteSpec = {
  checkOrigin: true,
  tags: ['Auth'],
  summary: 'Verify an e-mail address with the token of the verification mail',
  description: 'The token works once, for 24 hours, and only while the user still has the address it was mailed to. Does not sign in.',
  validate: { payload: Joi.object({ token: linkTokenSchema.required() }).label('VerifyEmailRequest') },
  responses: {
    200: { description: 'Verified: the user', schema: Joi.object({ user: sessionUserSchema.required() }).label('VerifyEmailResponse') },
    ...commonErrors,
    400: errorResponse('VALIDATION_ERROR or INVALID_TOKEN: the link is invalid, has expired or has already been used'),
    403: originRefused,
  },
  handler: (deps) => async (request) => {
    const { token } = request.payload as { token: string };
    const user = await deps.emailVerification.verify(token, { clientAddress: clientAddress(request, deps.config.server.trustProxy) });
    return { user: toSessionUserBody(await deps.userViews.sessionUser(user)) };
  },
};

export const resendVerificationRoute: RouteSpec = {
  checkOrigin: true,
  tags: ['Auth'],
  summary: 'Send the verification mail again',
  description:
    '202 always, whether or not the address belongs to an account that needs verifying (nothing is sent then): the answer and its timing do not tell which addresses are registered. Rate limited per e-mail and per client address (security.login_rate_limit): 429 with Retry-After.',
  validate: { query: localeQuery, payload: Joi.object({ email: emailSchema.required() }).label('ResendVerificationRequest') },
  responses: {
    202: { description: 'Accepted: a mail is sent if the address needs verifying' },
    ...commonErrors,
    403: originRefused,
    429: tooManyRequestsResponse,
    503: emailDisabledResponse,
  },
  handler: (deps) => async (request, h) => {
    const { email } = request.payload as { email: string };
    await deps.emailVerification.resend({
      email,
      locale: requestLocale(request, deps.config.i18n),
      clientAddress: clientAddress(request, deps.config.server.trustProxy),
    });
    return h.response().code(202);
  },
};
