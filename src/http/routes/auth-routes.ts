import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { hashSessionId } from '../../accounts/sessions.js';
import {
  clearSessionCookie,
  readSession,
  readSessionCookieId,
  setSessionCookie,
  sessionOf,
} from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';
import { sessionUserSchema, toSessionUserBody } from '../schemas/user-schemas.js';
import type { HttpDeps } from '../http-deps.js';
import type { SignInOutcome } from '../../interaction/index.js';

/**
 * Browser sign-in (docs/http-api.md, "Sessions and login"). The login answers either the signed-in
 * session user, or, when a second factor is required, which factors may
 * complete the sign-in (the cookie then holds a pending session that only
 * the second-factor routes accept), or that one must be enrolled first:
 * the sign-in steps of src/interaction decide which. See docs/http-api.md.
 */
export const secondFactorRequiredSchema = Joi.object({
  status: Joi.string().valid('second_factor_required').required(),
  factors: Joi.array()
    .items(Joi.string().valid('totp', 'recovery_code', 'passkey'))
    .required()
    .description(
      'Factors that can complete the sign-in (POST /api/auth/login/totp, /login/recovery-code, /passkey/verify)',
    ),
  enrolment_required: Joi.boolean()
    .required()
    .description(
      'True when the user must register a first factor (POST /api/user/totp or /api/user/passkeys/options), which completes the sign-in',
    ),
}).label('SecondFactorRequired');

/** 200 of a sign-in that may stop at a second factor: the login's answer, and a passkey's. */
export const signInResponse = {
  description: 'Signed in (`user`), or a second factor is required (`status`, `factors`, `enrolment_required`)',
  schema: Joi.alternatives()
    .try(Joi.object({ user: sessionUserSchema.required() }).label('LoginSucceeded'), secondFactorRequiredSchema)
    .label('LoginResponse'),
};

/** The login's answer for an outcome of the sign-in service. */
export async function signInBody(deps: HttpDeps, outcome: SignInOutcome) {
  if (outcome.status === 'second_factor_required') {
    return { status: outcome.status, factors: outcome.factors, enrolment_required: outcome.enrolmentRequired };
  }
  return { user: toSessionUserBody(await deps.admin.userViews.sessionUser(outcome.user)) };
}

export const loginRoute: RouteSpec = {
  checkOrigin: true,
  tags: ['Auth'],
  summary: 'Sign in with e-mail and password',
  description:
    'Sets the `session` cookie. Wrong credentials answer 401 INVALID_CREDENTIALS; too many failures per account or client address answer 429 with Retry-After; a user who must verify their e-mail first answers 403 EMAIL_NOT_VERIFIED (after the second factor, when one is required).',
  validate: {
    payload: Joi.object({
      email: Joi.string().trim().min(1).max(320).required(),
      password: Joi.string().min(1).max(1024).required(),
    }).label('LoginRequest'),
  },
  responses: {
    200: signInResponse,
    ...commonErrors,
    401: errorResponse('INVALID_CREDENTIALS: The email or password is incorrect.'),
    403: errorResponse(
      'EMAIL_NOT_VERIFIED: the e-mail address must be verified first / ORIGIN_NOT_ALLOWED: the request came from another origin',
    ),
    429: errorResponse('TOO_MANY_REQUESTS: too many failed attempts; see Retry-After'),
  },
  handler: (deps) => async (request, h) => {
    const { email, password } = request.payload as { email: string; password: string };
    const outcome = await deps.interaction.signIn.withPassword({
      email,
      password,
      clientAddress: addressOf(request),
    });
    setSessionCookie(h, outcome.sessionId);
    return signInBody(deps, outcome);
  },
};

export const logoutRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'Sign out',
  description:
    'Deletes the server-side session (a pending one too) and clears the cookie. Succeeds without a session too.',
  responses: { 204: { description: 'Signed out' }, 403: errorResponse('ORIGIN_NOT_ALLOWED') },
  handler: (deps) => async (request, h) => {
    const current = readSession(request);
    if (current)
      await deps.accounts.signOut(
        { idHash: current.session.idHash, sub: current.user.sub },
        { clientAddress: addressOf(request) },
      );
    else {
      // A sign-in still waiting for its second factor ends too: no session to sign out of, nothing to record.
      const sessionId = readSessionCookieId(request);
      if (sessionId) await deps.accounts.sessions.abandonPending(hashSessionId(sessionId));
    }
    clearSessionCookie(h);
    return h.response().code(204);
  },
};

export const sessionRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'The current browser session',
  responses: {
    200: {
      description: 'The signed-in user and the session',
      schema: Joi.object({
        user: sessionUserSchema.required(),
        session: Joi.object({
          auth_time: Joi.string().isoDate().required().description('When the user signed in (ISO 8601 UTC)'),
          expires_at: Joi.string().isoDate().required(),
          amr: Joi.array().items(Joi.string()).required().description('RFC 8176 authentication methods'),
        })
          .required()
          .label('SessionInfo'),
      }).label('SessionResponse'),
    },
    401: errorResponse('UNAUTHORIZED: Authentication is required to access this resource.'),
  },
  handler: (deps) => async (request) => {
    const { session, user } = sessionOf(request);
    return {
      user: toSessionUserBody(await deps.admin.userViews.sessionUser(user)),
      session: {
        auth_time: new Date(session.authTime).toISOString(),
        expires_at: new Date(session.expiresAt).toISOString(),
        amr: session.amr,
      },
    };
  },
};
