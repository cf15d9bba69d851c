import Joi from 'joi';
import type { Request } from '@hapi/hapi';
import type { ActiveSession } from '../../accounts/sessions.js';
import type { RouteSpec } from '../route-definition.js';
import { sessionOf, setSessionCookie } from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';
import {
  passkeyNameSchema,
  passkeySchema,
  toPasskeyBody,
  webAuthnOptionsSchema,
  webAuthnResponseSchema,
} from '../schemas/second-factor-schemas.js';

/**
 * The user's passkeys (docs/http-api.md, "Second factors"): registration (options, then
 * the browser's attestation), list, rename, remove. Registration is open to
 * the pending session of the enrolment at sign-in too, and completes that
 * sign-in. With auth.passkeys_enabled false every route answers 403
 * PASSKEYS_DISABLED. Rules in src/accounts/passkey-service.ts.
 */
const caller = (request: Request): ActiveSession => {
  const { session, user } = sessionOf(request);
  return { session, user };
};

const errors = {
  ...commonErrors,
  401: errorResponse('UNAUTHORIZED: Authentication is required to access this resource.'),
  403: errorResponse('PASSKEYS_DISABLED: Passkeys are turned off on this server. / ORIGIN_NOT_ALLOWED'),
};
const notFound = { 404: errorResponse('PASSKEY_NOT_FOUND: Passkey not found.') };
const idParams = Joi.object({
  id: Joi.string().max(64).required().description('The passkey id of GET /api/user/passkeys'),
});
const passkeyResponse = (description: string) => ({
  description,
  schema: Joi.object({ passkey: passkeySchema.required() }).label('PasskeyResponse'),
});

export const passkeyListRoute: RouteSpec = {
  tags: ['User'],
  summary: "The signed-in user's passkeys",
  responses: {
    200: {
      description: 'Oldest first',
      schema: Joi.object({ passkeys: Joi.array().items(passkeySchema).required() }).label('PasskeyList'),
    },
    ...errors,
  },
  handler: (deps) => async (request) => ({
    passkeys: (await deps.accounts.passkeys.list(caller(request).user)).map(toPasskeyBody),
  }),
};

export const passkeyRegistrationOptionsRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Options for registering a passkey',
  description:
    "WebAuthn creation options (pass them to @simplewebauthn/browser's startRegistration): a discoverable credential that verifies its user. The challenge lives 5 minutes and works once, from this session.",
  responses: {
    200: { description: 'WebAuthn creation options', schema: webAuthnOptionsSchema.label('PasskeyCreationOptions') },
    ...errors,
  },
  handler: (deps) => async (request, h) =>
    h.response(await deps.interaction.enrolment.passkeyOptions(caller(request))).header('cache-control', 'no-store'),
};

export const passkeyRegisterRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Register a passkey',
  description:
    'Verifies the attestation against the challenge of POST /api/user/passkeys/options and stores the passkey. From the pending session of the enrolment at sign-in, it also completes the sign-in.',
  validate: {
    payload: Joi.object({ response: webAuthnResponseSchema.required(), name: passkeyNameSchema.required() }).label(
      'PasskeyRegistrationRequest',
    ),
  },
  responses: {
    201: passkeyResponse('Registered'),
    ...errors,
    400: errorResponse('VALIDATION_ERROR, or INVALID_PASSKEY: the attestation does not verify (the message says why)'),
    409: errorResponse('PASSKEY_ALREADY_REGISTERED: This passkey is already registered.'),
  },
  handler: (deps) => async (request, h) => {
    const { response, name } = request.payload as { response: unknown; name: string };
    const { passkey, sessionId } = await deps.interaction.enrolment.registerPasskey(
      caller(request),
      response,
      name,
      addressOf(request),
    );
    if (sessionId !== null) setSessionCookie(h, sessionId);
    return h.response({ passkey: toPasskeyBody(passkey) }).code(201);
  },
};

export const passkeyRenameRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Rename a passkey',
  validate: {
    params: idParams,
    payload: Joi.object({ name: passkeyNameSchema.required() }).label('PasskeyRenameRequest'),
  },
  responses: { 200: passkeyResponse('Renamed'), ...errors, ...notFound },
  handler: (deps) => async (request) => {
    const { name } = request.payload as { name: string };
    return {
      passkey: toPasskeyBody(
        await deps.accounts.passkeys.rename(caller(request).user, (request.params as { id: string }).id, name),
      ),
    };
  },
};

export const passkeyDeleteRoute: RouteSpec = {
  tags: ['User'],
  summary: 'Remove a passkey',
  validate: { params: idParams },
  responses: {
    204: { description: 'Removed' },
    ...errors,
    ...notFound,
    409: errorResponse('SECOND_FACTOR_REQUIRED: the account must keep a second factor and this is its last'),
  },
  handler: (deps) => async (request, h) => {
    await deps.accounts.passkeys.remove(
      caller(request).user,
      (request.params as { id: string }).id,
      addressOf(request),
    );
    return h.response().code(204);
  },
};
