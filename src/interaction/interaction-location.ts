import type { PendingAuthorization, Prompt } from './sign-in-state.js';

/**
 * Parameters this server adds to the authorization request it sends the
 * browser back to after an interaction (docs/oidc.md). They only ever make
 * the request stricter or end it, so a user editing them gains nothing:
 * - auth_after: the sign-in must be at least this recent (epoch ms); set
 *   when the user is sent to /login, it replaces prompt=login and satisfies
 *   max_age, which would otherwise ask for a sign-in forever;
 * - consent_denied: the user pressed Deny on the consent page;
 * - terms_declined: the user declined a required term on the terms page;
 * - access_denied: the user outside the client's access pressed "Back to"
 *   on the access-denied page.
 */
export const interactionParams = {
  authAfter: 'auth_after',
  consentDenied: 'consent_denied',
  termsDeclined: 'terms_declined',
  accessDenied: 'access_denied',
} as const;

export const authorizePath = '/oauth2/authorize';

/** Where a device's request (RFC 8628 §3.3) runs the steps, as the authorization endpoint runs them for its own. */
export const deviceVerificationPath = '/oauth2/device_verification';

/**
 * The same-origin path back to an authorization request, or to a device's
 * request (the return_to of /login and /consent).
 */
export function authorizeReturnTo(
  request: Pick<PendingAuthorization, 'params' | 'device'>,
  changes: ReturnToChanges = {},
): string {
  const next: Record<string, string> = { ...request.params, ...changes.set };
  if (changes.dropPrompt !== undefined) {
    const prompt = ('prompt' in next ? next.prompt : '').split(' ').filter((p) => p !== '' && p !== changes.dropPrompt);
    if (prompt.length > 0) next.prompt = prompt.join(' ');
    else delete next.prompt;
  }
  const path = request.device === null ? authorizePath : deviceVerificationPath;
  return `${path}?${new URLSearchParams(next).toString()}`;
}

export interface ReturnToChanges {
  dropPrompt?: Prompt;
  set?: Record<string, string>;
}

/** `/login?return_to=…` (with the login_hint and account choice the page may use). */
export function loginLocation(returnTo: string, options: { loginHint?: string; selectAccount?: boolean } = {}): string {
  const query = new URLSearchParams({ return_to: returnTo });
  if (options.loginHint !== undefined) query.set('login_hint', options.loginHint);
  if (options.selectAccount) query.set('select_account', 'true');
  return `/login?${query.toString()}`;
}

/**
 * `/login/second-factor?return_to=…&step_up=true`: the page of every second
 * factor, which with `step_up` offers a signed-in user without one the
 * step-up a client asked for (POST /api/auth/step-up).
 */
export function stepUpLocation(returnTo: string): string {
  return `/login/second-factor?${new URLSearchParams({ return_to: returnTo, step_up: 'true' }).toString()}`;
}

export function termsLocation(returnTo: string): string {
  return `/terms?${new URLSearchParams({ return_to: returnTo }).toString()}`;
}

export function consentLocation(returnTo: string): string {
  return `/consent?${new URLSearchParams({ return_to: returnTo }).toString()}`;
}

export function accessDeniedLocation(returnTo: string): string {
  return `/access-denied?${new URLSearchParams({ return_to: returnTo }).toString()}`;
}
