import { authorizeReturnTo, loginLocation } from '../interaction-location.js';
import type { Identified } from '../sign-in-state.js';
import { proceed, showPage, type StepResult } from '../step-result.js';

/**
 * emailVerified (docs/oidc.md, "Interaction: the sign-in steps"): a user who must verify their e-mail
 * (email_verification_required, set by a registration under
 * registration.email_verification_required) and has not done so does not
 * get in. A sign-in through the API is refused (POST /api/auth/login answers
 * 403 EMAIL_NOT_VERIFIED, and the page offers to resend the mail); an
 * authorization request with the session of such a user (the address was
 * unverified after the session began) sends the browser to /login, where
 * signing in says why; under prompt=none it ends with login_required.
 */
export function emailVerified(state: Identified): StepResult {
  const { identity, request } = state;
  const user = identity.user;
  if (!user.emailVerificationRequired || user.emailVerified) return proceed(state);
  if (request === null) return { kind: 'email_not_verified' };
  const location = loginLocation(authorizeReturnTo(request), { loginHint: request.params.login_hint });
  return showPage(request, location, {
    error: 'login_required',
    description: 'The user must verify their e-mail address.',
  });
}
