import Joi from 'joi';
import type { Request, ResponseToolkit } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import type { HttpDeps } from '../http-deps.js';
import { clearSessionCookie, readSessionCookieId, setSessionCookie } from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { commonErrors, errorResponse } from '../schemas/error-schema.js';
import { sessionUserSchema, subSchema, toSessionUserBody } from '../schemas/user-schemas.js';
import { rememberedAccountsCookie } from '../../interaction/index.js';

/**
 * docs/http-api.md, "Remembered accounts": the accounts remembered in this browser session, and switching
 * to one of them (prompt=select_account). The list lives in a sealed cookie
 * of session ids (src/interaction/remembered-accounts.ts).
 */
export function setRememberedAccountsCookie(h: ResponseToolkit, deps: HttpDeps, value: string | null): void {
  if (value === null) {
    h.unstate(rememberedAccountsCookie, { path: '/' });
    return;
  }
  h.state(rememberedAccountsCookie, value, {
    encoding: 'none',
    isHttpOnly: true,
    isSameSite: 'Lax',
    isSecure: new URL(deps.config.server.baseUrl).protocol === 'https:',
    path: '/',
    ttl: deps.config.security.sessionTtlSeconds * 1000,
  });
}

function readCookie(request: Request): string | undefined {
  const value = request.state[rememberedAccountsCookie];
  return typeof value === 'string' ? value : undefined;
}

const accountSchema = Joi.object({
  sub: Joi.string().required(),
  email: Joi.string().required(),
  name: Joi.string().allow(null).required().description('The profile name, or null'),
  current: Joi.boolean().required().description('The account the session cookie points at now'),
}).label('RememberedAccount');

export const accountsListRoute: RouteSpec = {
  tags: ['Auth'],
  summary: 'Accounts remembered in this browser session',
  description:
    'Lists the accounts this browser signed in with whose sessions are still valid, most recent first. `client_id` is accepted for the account chooser of an authorization request and does not filter.',
  validate: { query: Joi.object({ client_id: Joi.string().max(255) }) },
  responses: {
    200: {
      description: 'The remembered accounts',
      schema: Joi.object({ accounts: Joi.array().items(accountSchema).required() }).label('RememberedAccounts'),
    },
    ...commonErrors,
  },
  handler: (deps) => async (request, h) => {
    const { accounts, cookie } = await deps.interaction.rememberedAccounts.list(
      readCookie(request),
      readSessionCookieId(request),
    );
    setRememberedAccountsCookie(h, deps, cookie);
    return h.response({ accounts }).header('cache-control', 'no-store');
  },
};

export const accountsSelectRoute: RouteSpec = {
  checkOrigin: true,
  tags: ['Auth'],
  summary: 'Make a remembered account the signed-in one',
  description:
    'The chosen session gets a new `session` cookie value, and the value remembered for it stops working (docs/http-api.md "Session renewal").',
  validate: { payload: Joi.object({ sub: subSchema.required() }).label('SelectAccountRequest') },
  responses: {
    200: {
      description: 'The session cookie now points at this account',
      schema: Joi.object({ user: sessionUserSchema.required() }).label('SelectAccountResponse'),
    },
    ...commonErrors,
    400: errorResponse(
      'VALIDATION_ERROR, or ACCOUNT_NOT_REMEMBERED: The account is not remembered in this browser session.',
    ),
    403: errorResponse('ORIGIN_NOT_ALLOWED: the request came from another origin'),
  },
  handler: (deps) => async (request, h) => {
    const { sub } = request.payload as { sub: string };
    const selected = await deps.interaction.rememberedAccounts.select(
      readCookie(request),
      readSessionCookieId(request),
      sub,
    );
    setSessionCookie(h, selected.sessionId);
    setRememberedAccountsCookie(h, deps, selected.cookie);
    return { user: toSessionUserBody(await deps.admin.userViews.sessionUser(selected.session.user)) };
  },
};

export const accountsForgetRoute: RouteSpec = {
  checkOrigin: true,
  tags: ['Auth'],
  summary: 'Forget a remembered account in this browser',
  description:
    'Drops the account from the list of this browser session and ends its session here (the sign_out event); forgetting the signed-in account signs this browser out. Answers the accounts that remain.',
  validate: { payload: Joi.object({ sub: subSchema.required() }).label('ForgetAccountRequest') },
  responses: {
    200: {
      description: 'The accounts still remembered',
      schema: Joi.object({ accounts: Joi.array().items(accountSchema).required() }).label('RememberedAccountsLeft'),
    },
    ...commonErrors,
    400: errorResponse(
      'VALIDATION_ERROR, or ACCOUNT_NOT_REMEMBERED: The account is not remembered in this browser session.',
    ),
    403: errorResponse('ORIGIN_NOT_ALLOWED: the request came from another origin'),
  },
  handler: (deps) => async (request, h) => {
    const { sub } = request.payload as { sub: string };
    const forgotten = await deps.interaction.rememberedAccounts.forget(
      readCookie(request),
      readSessionCookieId(request),
      sub,
    );
    await deps.accounts.signOut({ idHash: forgotten.ended.session.idHash, sub }, { clientAddress: addressOf(request) });
    if (forgotten.current) clearSessionCookie(h);
    setRememberedAccountsCookie(h, deps, forgotten.cookie);
    return h.response({ accounts: forgotten.accounts }).header('cache-control', 'no-store');
  },
};
