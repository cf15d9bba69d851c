import Joi from 'joi';
import type { Request } from '@hapi/hapi';
import type { ActiveSession } from '../../accounts/sessions.js';
import type { RouteSpec } from '../route-definition.js';
import { sessionOf, setSessionCookie } from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';
import { recoveryCodesSchema, totpCodeSchema } from '../schemas/second-factor-schemas.js';

/**
 * The user's authenticator app and recovery codes (docs/http-api.md, "Second factors").
 * Enrolment (POST /api/user/totp, /confirm) is open to the pending session
 * of the enrolment at sign-in too, and its confirmation completes that
 * sign-in; removal and new recovery codes need a signed-in session and a
 * current code. Rules in src/accounts/totp-service.ts.
 */
const caller = (request: Request): ActiveSession => {
  const { session, user } = sessionOf(request);
  return { session, user };
};

const sessionErrors = {
  ...commonErrors,
  401: errorResponse('UNAUTHORIZED: Authentication is required to access this resource.'),
  403: errorResponse('ORIGIN_NOT_ALLOWED: the request came from another origin'),
};
const codeErrors = {
  ...sessionErrors,
  401: errorResponse('INVALID_CODE: The code is incorrect, expired or already used. / UNAUTHORIZED'),
  404: errorResponse('TOTP_NOT_REGISTERED: No authenticator app is registered.'),
  429: errorResponse('TOO_MANY_REQUESTS: too many wrong codes; see Retry-After'),
};
const codePayload = (label: string) => Joi.object({ code: totpCodeSchema.required() }).label(label);

export const totpBeginRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Start registering an authenticator app',
  description:
    'Answers a new secret and its otpauth:// URL (for a QR code); nothing changes until POST /api/user/totp/confirm. Starting again replaces a pending secret.',
  responses: {
    200: {
      description: 'The secret to enter in the app (or scan as the URL)',
      schema: Joi.object({
        secret: Joi.string().required().description('Base32, for typing in by hand'),
        otpauth_url: Joi.string().required().description('otpauth://totp/… (Key Uri Format), for a QR code'),
      }).label('TotpEnrolment'),
    },
    ...sessionErrors,
    409: errorResponse('TOTP_ALREADY_REGISTERED: An authenticator app is already registered.'),
  },
  handler: (deps) => async (request, h) => {
    const enrolment = await deps.interaction.enrolment.beginTotp(caller(request));
    return h
      .response({ secret: enrolment.secret, otpauth_url: enrolment.otpauthUrl })
      .header('cache-control', 'no-store');
  },
};

export const totpConfirmRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Confirm the authenticator app with its first code',
  description:
    'Registers the app and answers 10 recovery codes, shown this once. From the pending session of the enrolment at sign-in, it also completes the sign-in under a new `session` cookie value (the pending one stops working).',
  validate: { payload: codePayload('TotpConfirmRequest') },
  responses: {
    200: {
      description: 'Registered',
      schema: Joi.object({ recovery_codes: recoveryCodesSchema.required() }).label('RecoveryCodes'),
    },
    ...sessionErrors,
    401: errorResponse('INVALID_CODE: The code is incorrect, expired or already used. / UNAUTHORIZED'),
    409: errorResponse('TOTP_NOT_PENDING: no enrolment was started / TOTP_ALREADY_REGISTERED'),
  },
  handler: (deps) => async (request, h) => {
    const { code } = request.payload as { code: string };
    const { recoveryCodes, sessionId } = await deps.interaction.enrolment.confirmTotp(
      caller(request),
      code,
      addressOf(request),
    );
    if (sessionId !== null) setSessionCookie(h, sessionId);
    return h.response({ recovery_codes: recoveryCodes }).header('cache-control', 'no-store');
  },
};

export const totpDeleteRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Remove the authenticator app',
  description: 'Needs a current code. The recovery codes go with it.',
  validate: { payload: codePayload('TotpDeleteRequest') },
  responses: {
    204: { description: 'Removed' },
    ...codeErrors,
    409: errorResponse('SECOND_FACTOR_REQUIRED: the account must keep a second factor and has no other'),
  },
  handler: (deps) => async (request, h) => {
    const { code } = request.payload as { code: string };
    await deps.accounts.totp.remove(caller(request).user, code, addressOf(request));
    return h.response().code(204);
  },
};

export const recoveryCodesRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Replace the recovery codes',
  description:
    'Needs a current code of the authenticator app. Answers 10 new codes, shown this once; the old ones stop working.',
  validate: { payload: codePayload('RecoveryCodesRequest') },
  responses: {
    200: {
      description: 'The new codes',
      schema: Joi.object({ recovery_codes: recoveryCodesSchema.required() }).label('NewRecoveryCodes'),
    },
    ...codeErrors,
  },
  handler: (deps) => async (request, h) => {
    const { code } = request.payload as { code: string };
    const recoveryCodes = await deps.accounts.totp.regenerateRecoveryCodes(
      caller(request).user,
      code,
      addressOf(request),
    );
    return h.response({ recovery_codes: recoveryCodes }).header('cache-control', 'no-store');
  },
};
