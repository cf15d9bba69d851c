import Joi from 'joi';
import { errorResponse } from './error-schema.js';

/**
 * Wire pieces shared by the self-service account routes (docs/http-api.md, "Self-service accounts"):
 * registration, e-mail verification and the forgotten password.
 */

/** A new password: at most 256 characters, as the admin API's; below auth.password_min_length the service answers PASSWORD_TOO_SHORT, the empty one included. */
export const newPasswordSchema = Joi.string().allow('').max(256);

/** The token of a mailed link as the page found it in the URL; anything that is not one answers INVALID_TOKEN. */
export const linkTokenSchema = Joi.string().min(1).max(512).description('The `token` parameter of the mailed link');

/** `?locale=`: the language the page shows, which the mail is then written in (before Accept-Language). */
export const localeQuery = Joi.object({
  locale: Joi.string()
    .max(35)
    .description('Language of the mail this request causes; else Accept-Language, else i18n.default_locale'),
});

export const originRefused = errorResponse('ORIGIN_NOT_ALLOWED: the request came from another origin');
export const emailDisabledResponse = errorResponse(
  'EMAIL_DISABLED: this server does not send e-mail (email.enabled is false)',
);
export const tooManyRequestsResponse = errorResponse(
  'TOO_MANY_REQUESTS: too many requests for this e-mail or from this address; see Retry-After',
);
