import Joi from 'joi';
import type { MailRequest } from '../../accounts/mail-request.js';
import type { HttpDeps } from '../http-deps.js';
import type { RouteSpec } from '../route-definition.js';
import { addressOf } from '../client-address.js';
import { requestLocale } from '../request-locale.js';
import { commonErrors } from '../schemas/error-schema.js';
import { emailSchema } from '../schemas/user-schemas.js';
import {
  emailDisabledResponse,
  localeQuery,
  originRefused,
  tooManyRequestsResponse,
} from '../schemas/account-schemas.js';

/**
 * A "send me a link" route (docs/http-api.md, "Self-service accounts": resend and forgot): `{ email }`
 * in, 202 whatever the address, the mail in the request's locale, 429 from
 * the rate limit, 503 while e-mail is off (src/accounts/mail-request.ts).
 */
export function mailRequestRoute(spec: {
  label: string;
  summary: string;
  description: string;
  accepted: string;
  send(deps: HttpDeps): MailRequest;
}): RouteSpec {
  return {
    checkOrigin: true,
    tags: ['Auth'],
    summary: spec.summary,
    description: spec.description,
    validate: { query: localeQuery, payload: Joi.object({ email: emailSchema.required() }).label(spec.label) },
    responses: {
      202: { description: spec.accepted },
      ...commonErrors,
      403: originRefused,
      429: tooManyRequestsResponse,
      503: emailDisabledResponse,
    },
    handler: (deps) => async (request, h) => {
      const { email } = request.payload as { email: string };
      await spec.send(deps)({
        email,
        locale: requestLocale(request, deps.config.i18n),
        clientAddress: addressOf(request),
      });
      return h.response().code(202);
    },
  };
}
