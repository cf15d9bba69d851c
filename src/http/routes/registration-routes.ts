import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { setSessionCookie } from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { requestLocale } from '../request-locale.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';
import { sessionUserSchema, emailSchema, toSessionUserBody } from '../schemas/user-schemas.js';
import { emailDisabledResponse, localeQuery, newPasswordSchema } from '../schemas/account-schemas.js';

/**
 * Self-registration (docs/http-api.md, "Self-service accounts"): the rules are src/accounts/registration.ts;
 * an account that is active at once goes through the sign-in steps of
 * src/interaction like a login, and gets its session cookie here.
 */
export const registerRoute: RouteSpec = {
  checkOrigin: true,
  tags: ['Auth'],
  summary: 'Create an account with e-mail and password',
  description:
    'Under `registration.email_verification_required` the account waits for its e-mail to be verified (`status: verification_required`, a verification mail in the locale of `?locale=` or Accept-Language, no session); otherwise it is signed in at once (`status: active` and the `session` cookie). When `auth.second_factor` requires a factor of the new user, the answer is `status: second_factor_required` with `factors` and the cookie holds a pending session, as after a login. Every required term with consent_mode explicit must be in `accepted_terms`; implicit terms are accepted by signing up. Checks, in order: REGISTRATION_DISABLED, TOO_MANY_REQUESTS (per client address, with Retry-After), EMAIL_DISABLED, EMAIL_NOT_ALLOWED, PASSWORD_TOO_SHORT, TERMS_NOT_ACCEPTED, EMAIL_ALREADY_EXISTS.',
  validate: {
    query: localeQuery,
    payload: Joi.object({
      email: emailSchema.required(),
      password: newPasswordSchema.required(),
      accepted_terms: Joi.array()
        .items(Joi.string().min(1).max(255))
        .max(100)
        .unique()
        .default([])
        .description('Ids of the terms the person accepted'),
    }).label('RegisterRequest'),
  },
  responses: {
    201: {
      description: 'Created: the new user and what happens next',
      schema: Joi.object({
        user: sessionUserSchema.required(),
        status: Joi.string().valid('active', 'verification_required', 'second_factor_required').required(),
        factors: Joi.array()
          .items(Joi.string().valid('totp', 'recovery_code', 'passkey'))
          .description(
            'With status second_factor_required: the factors that can complete the sign-in (empty: enrol one first)',
          ),
        enrolment_required: Joi.boolean().description(
          'With status second_factor_required: true, a new user registers a first factor (docs/http-api.md "Enrolment at sign-in")',
        ),
      }).label('RegisterResponse'),
    },
    ...commonErrors,
    400: errorResponse('VALIDATION_ERROR, PASSWORD_TOO_SHORT or TERMS_NOT_ACCEPTED'),
    403: errorResponse('REGISTRATION_DISABLED, EMAIL_NOT_ALLOWED or ORIGIN_NOT_ALLOWED'),
    409: errorResponse('EMAIL_ALREADY_EXISTS: The provided email is already registered.'),
    429: errorResponse('TOO_MANY_REQUESTS: too many registrations from this client address; see Retry-After'),
    503: emailDisabledResponse,
  },
  handler: (deps) => async (request, h) => {
    const body = request.payload as { email: string; password: string; accepted_terms: string[] };
    const registered = await deps.accounts.registration.register({
      email: body.email,
      password: body.password,
      acceptedTerms: body.accepted_terms,
      locale: requestLocale(request, deps.config.i18n),
      clientAddress: addressOf(request),
    });
    const user = toSessionUserBody(await deps.admin.userViews.sessionUser(registered.user));
    if (registered.status === 'verification_required') return h.response({ user, status: registered.status }).code(201);
    const outcome = await deps.interaction.signIn.withNewAccount(registered.user, {
      clientAddress: addressOf(request),
    });
    setSessionCookie(h, outcome.sessionId);
    if (outcome.status === 'second_factor_required') {
      return h
        .response({
          user,
          status: outcome.status,
          factors: outcome.factors,
          enrolment_required: outcome.enrolmentRequired,
        })
        .code(201);
    }
    return h.response({ user, status: 'active' }).code(201);
  },
};
