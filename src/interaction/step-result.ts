import type { SecondFactor } from '../accounts/login-second-factors.js';
import type { Identified, PendingAuthorization } from './sign-in-state.js';

/** The errors a sign-in answers an authorization request with (OIDC Core §3.1.2.6, RFC 6749 §4.1.2.1). */
export interface Refusal {
  error: 'login_required' | 'consent_required' | 'interaction_required' | 'access_denied';
  description: string;
}

/**
 * What a step decides: go on to the next step (with the state it knows
 * now), send the browser to a page, wait for a second factor (the login
 * API answers it), refuse a sign-in through the API until the e-mail is
 * verified, or refuse the authorization request.
 */
export type StepResult =
  | { kind: 'continue'; state: Identified }
  | { kind: 'page'; location: string }
  | { kind: 'second_factor'; factors: SecondFactor[] }
  | { kind: 'email_not_verified' }
  | ({ kind: 'refused' } & Refusal);

export function proceed(state: Identified): StepResult {
  return { kind: 'continue', state };
}

export function refuse(refusal: Refusal): StepResult {
  return { kind: 'refused', ...refusal };
}

/** OIDC Core §3.1.2.1: with prompt=none no page may be shown, so the request is refused instead. */
export function showPage(request: PendingAuthorization, location: string, insteadUnderPromptNone: Refusal): StepResult {
  return request.prompt.has('none') ? refuse(insteadUnderPromptNone) : { kind: 'page', location };
}
