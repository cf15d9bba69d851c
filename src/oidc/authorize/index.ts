/**
 * The authorization endpoint (RFC 6749 §3.1, OIDC Core §3.1.2). A request
 * runs through the steps below, in order; each takes the state the previous
 * one returned and returns a larger one, ends early with `finish(outcome)`,
 * or throws an OAuthError (an error page before the redirect URI is trusted,
 * a response to the client after). The HTTP layer renders the outcome.
 * resolvePushedRequest puts a pushed request (RFC 9126, ../par) in the
 * place of its request_uri. resolveInteraction runs the sign-in steps of
 * src/interaction (who, which account, second factor, consent) on the
 * validated request.
 */
import { checkClaims } from './check-claims.js';
import { checkPkce } from './check-pkce.js';
import { checkPrompt } from './check-prompt.js';
import { checkRedirectUri } from './check-redirect-uri.js';
import { checkResponseType } from './check-response-type.js';
import { checkScope } from './check-scope.js';
import { loadClient } from './load-client.js';
import { parse, type AuthorizeInput } from './parse.js';
import { resolveInteraction } from './resolve-interaction.js';
import { resolvePushedRequest } from './resolve-pushed-request.js';
import { respond } from './respond.js';
import { runSteps } from './run-steps.js';
import type { AuthorizeDeps, AuthorizeOutcome } from './types.js';

/** The checks of the parameters, independent of who is signed in; the PAR endpoint runs them too (../par). */
export const requestChecks = [
  loadClient,
  checkRedirectUri,
  checkResponseType,
  checkScope,
  checkPkce,
  checkPrompt,
  checkClaims,
] as const;

/** Everything that makes a request valid, independent of who is signed in. */
export const validationSteps = [parse, resolvePushedRequest, ...requestChecks] as const;

export const authorizationSteps = [...validationSteps, resolveInteraction, respond] as const;

export async function authorize(input: AuthorizeInput, deps: AuthorizeDeps): Promise<AuthorizeOutcome> {
  const result = await runSteps(authorizationSteps, input, deps);
  if ('outcome' in result) return result.outcome;
  // respond always finishes; reaching here means a step was left out of the list.
  throw new Error('the authorization steps ended without an outcome');
}

export type { AuthorizeInput } from './parse.js';
export { createPushedRequests, type PushedRequests } from './pushed-requests.js';
export type * from './types.js';
