import { OAuthError } from '../errors.js';
import type { WithPrompt } from './check-prompt.js';
import {
  authorizeReturnTo,
  consentLocation,
  interactionParams,
  loginLocation,
} from './interaction-location.js';
import { finish, type Finished } from './run-steps.js';
import type { AuthorizeDeps, AuthorizeSession } from './types.js';

export interface WithGrant extends WithPrompt {
  session: AuthorizeSession;
}

/**
 * Decides whether the user must sign in, choose an account or consent
 * before a code is issued (DESIGN.md 7, OIDC Core §3.1.2.3 and §3.1.2.4).
 * With prompt=none every such need is an error instead of a page.
 */
export async function resolveInteraction(state: WithPrompt, deps: AuthorizeDeps): Promise<WithGrant | Finished> {
  const { params, prompt, session } = state;
  const now = deps.clock.now();
  const loginHint = params.login_hint;
  const signIn = (returnTo: string, selectAccount = false) => {
    if (prompt.has('none')) throw new OAuthError('login_required', 'The user must sign in.');
    return finish({ kind: 'interaction', location: loginLocation(returnTo, { loginHint, selectAccount }) });
  };

  // A sign-in newer than the request satisfies prompt=login and any max_age
  // (max_age=0 included), so coming back from /login never loops.
  const afterNow = () => authorizeReturnTo(params, { dropPrompt: 'login', set: { [interactionParams.authAfter]: String(now) } });
  if (prompt.has('login') || !session) return signIn(afterNow());
  const signedInSinceRequest = state.authAfter !== null && session.authTime >= state.authAfter;
  if (state.authAfter !== null && !signedInSinceRequest) return signIn(authorizeReturnTo(params));
  if (!signedInSinceRequest && state.maxAge !== null && now - session.authTime > state.maxAge * 1000) return signIn(afterNow());
  if (prompt.has('select_account')) return signIn(authorizeReturnTo(params, { dropPrompt: 'select_account' }), true);

  if (state.consentDenied) throw new OAuthError('access_denied', 'The user denied the request.');
  if (await needsConsent(state, session, deps)) {
    if (prompt.has('none')) throw new OAuthError('consent_required', 'The user must consent to this request.');
    return finish({ kind: 'interaction', location: consentLocation(authorizeReturnTo(params, { dropPrompt: 'consent' })) });
  }
  return { ...state, session };
}

/** skip_consent clients and already granted scopes need no page, unless prompt=consent asks for it. */
async function needsConsent(state: WithPrompt, session: AuthorizeSession, deps: AuthorizeDeps): Promise<boolean> {
  if (state.prompt.has('consent')) return true;
  if (state.client.skipConsent) return false;
  const granted = await deps.grantedScopes(session.sub, state.client.clientId);
  return state.scopes.some((scope) => !granted.includes(scope));
}
