import { runSignIn } from '../../interaction/index.js';
import { OAuthError } from '../errors.js';
import type { WithClaims } from './check-claims.js';
import { finish, type Finished } from './run-steps.js';
import type { AuthorizeDeps, AuthorizeSession } from './types.js';

export interface WithGrant extends WithClaims {
  session: AuthorizeSession;
}

/**
 * Runs the sign-in steps of src/interaction on this request and the
 * browser's session (docs/oidc.md, "Interaction: the sign-in steps"): they decide whether the user must sign
 * in, choose an account or consent before a code is issued (OIDC Core
 * §3.1.2.3, §3.1.2.4), or whether the request ends with an error instead
 * (prompt=none, a Deny), which goes to the client like every other.
 */
export async function resolveInteraction(state: WithClaims, deps: AuthorizeDeps): Promise<WithGrant | Finished> {
  const identity = state.session && { kind: 'session' as const, ...state.session };
  const result = await runSignIn({ identity, request: { ...state, device: null } }, deps.signIn);
  if (result.kind === 'page') return finish({ kind: 'interaction', location: result.location });
  if (result.kind === 'refused') throw new OAuthError(result.error, result.description);
  if (result.kind === 'complete' && state.session) {
    // §5.5.1: never a token for another user than the sub the request names, even one signed in here.
    if (state.requiredSub !== null && state.requiredSub !== state.session.sub)
      throw new OAuthError('login_required', 'The signed-in user is not the one the request names.');
    return { ...state, session: state.session };
  }
  // The run starts from the cookie's session or none; only a new sign-in can wait for a second factor.
  throw new Error(`the sign-in steps ended a session's run with ${result.kind}`);
}
