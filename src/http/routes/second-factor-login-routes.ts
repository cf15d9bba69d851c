import Joi from 'joi';
import type { Request } from '@hapi/hapi';
import type { ActiveSession } from '../../accounts/sessions.js';
import type { RouteSpec } from '../route-definition.js';
import type { HttpDeps } from '../http-deps.js';
import { readSessionCookieId, setSessionCookie, sessionOf } from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { challengesAskedHere, rememberChallenge } from '../passkey-challenge-cookie.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';
import { sessionUserSchema, toSessionUserBody } from '../schemas/user-schemas.js';
import { totpCodeSchema, webAuthnOptionsSchema, webAuthnResponseSchema } from '../schemas/second-factor-schemas.js';
import { secondFactorRequiredSchema, signInBody, signInResponse } from './auth-routes.js';

/**
 * The second step of a sign-in (docs/http-api.md, "Second factors"): the pending session a right
 * password left in the cookie is completed with an authenticator app's
 * code, a recovery code or a passkey, and becomes a signed-in session under
 * a new cookie value (the pending one stops working: docs/http-api.md
 * "Session renewal"). A passkey also signs in alone (passwordless). Wrong codes
 * count against the login rate limit. See docs/http-api.md.
 */
const pendingErrors = {
  ...commonErrors,
  401: errorResponse(
    'INVALID_CODE: The code is incorrect, expired or already used. / UNAUTHORIZED: no pending sign-in',
  ),
  403: errorResponse('ORIGIN_NOT_ALLOWED: the request came from another origin'),
  409: errorResponse('SIGN_IN_NOT_PENDING: the session is signed in already'),
  429: errorResponse('TOO_MANY_REQUESTS: too many failed attempts; see Retry-After'),
};

const pendingSession = (request: Request): ActiveSession => {
  const { session, user } = sessionOf(request);
  return { session, user };
};

const signedIn = Joi.object({ user: sessionUserSchema.required() }).label('SecondFactorSucceeded');

export const loginTotpRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'Complete a sign-in with an authenticator app code',
  description:
    'Only the pending session of a right password may call it. A code is accepted once, within one 30-second step either side of now.',
  validate: { payload: Joi.object({ code: totpCodeSchema.required() }).label('LoginTotpRequest') },
  responses: { 200: { description: 'Signed in', schema: signedIn }, ...pendingErrors },
  handler: (deps) => async (request, h) => {
    const { code } = request.payload as { code: string };
    const { user, sessionId } = await deps.interaction.signIn.withTotp(
      pendingSession(request),
      code,
      addressOf(request),
    );
    setSessionCookie(h, sessionId);
    return { user: toSessionUserBody(await deps.admin.userViews.sessionUser(user)) };
  },
};

export const loginRecoveryCodeRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'Complete a sign-in with a recovery code',
  description:
    'Spends the code (each works once); `recovery_codes_left` says how many remain. Case, spaces and dashes do not matter.',
  validate: {
    payload: Joi.object({
      code: Joi.string().trim().min(1).max(64).required().description('One of the recovery codes, e.g. abcde-fghij'),
    }).label('LoginRecoveryCodeRequest'),
  },
  responses: {
    200: {
      description: 'Signed in',
      schema: Joi.object({
        user: sessionUserSchema.required(),
        recovery_codes_left: Joi.number().integer().min(0).required(),
      }).label('RecoveryCodeSucceeded'),
    },
    ...pendingErrors,
  },
  handler: (deps) => async (request, h) => {
    const { code } = request.payload as { code: string };
    const result = await deps.interaction.signIn.withRecoveryCode(pendingSession(request), code, addressOf(request));
    setSessionCookie(h, result.sessionId);
    return {
      user: toSessionUserBody(await deps.admin.userViews.sessionUser(result.user)),
      recovery_codes_left: result.recoveryCodesLeft,
    };
  },
};

/**
 * The step-up a client's `second_factor: required` asks for (docs/http-api.md,
 * "Step-up for a client"): the signed-in session without a second factor
 * becomes a pending one that must get one, under a new cookie value. The
 * user starts it on /login/second-factor?step_up=true; the authorization
 * endpoint never does (a cross-site GET would sign them halfway out).
 */
export const stepUpRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'Step up to a second factor a client requires',
  description:
    "Turns the caller's signed-in session, made without a second factor, into a pending one that only the second-factor routes accept, under a new `session` cookie value (the old one stops working). It answers like the login: the user's factors (POST /api/auth/login/totp, /login/recovery-code, /passkey/verify complete it), or `enrolment_required: true` for a user who has none (POST /api/user/totp + /confirm, or /api/user/passkeys/options + /api/user/passkeys complete it). The completed session has `otp` or `hwk` in its amr. The pending session lives at most 10 minutes.",
  validate: { payload: Joi.object({}).allow(null).label('StepUpRequest') },
  responses: {
    200: {
      description: 'The session waits for a second factor (`status`, `factors`, `enrolment_required`)',
      schema: secondFactorRequiredSchema,
    },
    ...commonErrors,
    401: errorResponse('UNAUTHORIZED: no signed-in session'),
    403: errorResponse('ORIGIN_NOT_ALLOWED: the request came from another origin'),
    409: errorResponse('STEP_UP_NOT_NEEDED: the session was signed in with a second factor already'),
  },
  handler: (deps) => async (request, h) => {
    const { session, user } = sessionOf(request);
    const outcome = await deps.interaction.signIn.stepUp({ session, user });
    setSessionCookie(h, outcome.sessionId);
    return signInBody(deps, outcome);
  },
};

/** The cookie's session when it waits for a second factor; a signed-in one or none means a passwordless sign-in. */
async function pendingOf(request: Request, deps: HttpDeps): Promise<ActiveSession | null> {
  const sessionId = readSessionCookieId(request);
  const active = sessionId ? await deps.accounts.sessions.resolve(sessionId, { allowPending: true }) : null;
  return active?.session.secondFactorPending ? active : null;
}

const passkeyErrors = {
  ...commonErrors,
  403: errorResponse('PASSKEYS_DISABLED: Passkeys are turned off on this server. / ORIGIN_NOT_ALLOWED'),
};

export const passkeyOptionsRoute: RouteSpec = {
  checkOrigin: true,
  tags: ['Auth'],
  summary: 'Options for signing in with a passkey',
  description:
    "WebAuthn request options for a discoverable credential (pass them to @simplewebauthn/browser's startAuthentication). With the pending session of a right password they complete that sign-in and list the user's passkeys; otherwise they are for a passwordless sign-in. The challenge lives 5 minutes, works once, and only in this browser: the answer adds it to the `passkey_challenge` cookie (sealed, HttpOnly, SameSite=Strict, Path=/api/auth/passkey) that /verify needs.",
  validate: { payload: Joi.object({}).allow(null).label('PasskeyOptionsRequest') },
  responses: {
    200: { description: 'WebAuthn request options', schema: webAuthnOptionsSchema.label('PasskeyRequestOptions') },
    ...passkeyErrors,
  },
  handler: (deps) => async (request, h) => {
    const pending = await pendingOf(request, deps);
    const options = await deps.accounts.passkeys.authenticationOptions(
      pending && { sub: pending.user.sub, sessionId: pending.session.idHash },
    );
    rememberChallenge(request, h, deps, options.challenge);
    return h.response(options).header('cache-control', 'no-store');
  },
};

export const passkeyVerifyRoute: RouteSpec = {
  checkOrigin: true,
  tags: ['Auth'],
  summary: 'Sign in with a passkey',
  description:
    "Verifies the browser's assertion against the challenge of POST /api/auth/passkey/options. It completes the cookie's pending sign-in when the options were asked for it (under a new `session` cookie value); otherwise it signs in the passkey's user and sets a new `session` cookie. A passkey verified its user, so no other factor is asked.",
  validate: { payload: Joi.object({ response: webAuthnResponseSchema.required() }).label('PasskeyVerifyRequest') },
  responses: {
    200: signInResponse,
    ...passkeyErrors,
    401: errorResponse('INVALID_PASSKEY: the assertion does not verify (the message says why)'),
  },
  handler: (deps) => async (request, h) => {
    const { response } = request.payload as { response: unknown };
    const outcome = await deps.interaction.signIn.withPasskey(
      response,
      await pendingOf(request, deps),
      challengesAskedHere(request, deps),
      addressOf(request),
    );
    setSessionCookie(h, outcome.sessionId);
    if (outcome.status === 'completed')
      return { user: toSessionUserBody(await deps.admin.userViews.sessionUser(outcome.user)) };
    return signInBody(deps, outcome);
  },
};
