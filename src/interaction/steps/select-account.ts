import { authorizeReturnTo, loginLocation } from '../interaction-location.js';
import type { Identified } from '../sign-in-state.js';
import { proceed, showPage, type StepResult } from '../step-result.js';

/**
 * selectAccount: prompt=select_account (OIDC Core §3.1.2.1) sends the
 * browser to /login with the accounts remembered in it on offer
 * (./remembered-accounts.ts); the path back drops the prompt value, so the
 * choice is asked once. prompt=none cannot be combined with it (checkPrompt).
 */
export function selectAccount(state: Identified): StepResult {
  const { request } = state;
  if (request === null || !request.prompt.has('select_account')) return proceed(state);
  const returnTo = authorizeReturnTo(request, { dropPrompt: 'select_account' });
  const location = loginLocation(returnTo, { loginHint: request.params.login_hint, selectAccount: true });
  return showPage(request, location, { error: 'login_required', description: 'The user must sign in.' });
}
