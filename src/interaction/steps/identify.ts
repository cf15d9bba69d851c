import { authorizeReturnTo, interactionParams, loginLocation } from '../interaction-location.js';
import type { SignInDeps } from '../sign-in-deps.js';
import type { SignInStart } from '../sign-in-state.js';
import { proceed, showPage, type StepResult } from '../step-result.js';

const loginRequired = { error: 'login_required', description: 'The user must sign in.' } as const;

/**
 * identify: is someone signed in, recently enough for this request? If
 * not, the browser goes to /login (OIDC Core §3.1.2.1 prompt=login and
 * max_age). The ways of answering /login (POST /api/auth/login, a password
 * today) start a run of their own with the identity they established and no
 * request: there is nothing more to check here then.
 */
export function identify(state: SignInStart, deps: SignInDeps): StepResult {
  if (state.request === null) return proceed(state);
  const { identity, request } = state;
  const now = deps.clock.now();
  const signIn = (returnTo: string) =>
    showPage(request, loginLocation(returnTo, { loginHint: request.params.login_hint }), loginRequired);

  // A sign-in newer than the request satisfies prompt=login and any max_age
  // (max_age=0 included), so coming back from /login never loops.
  const afterNow = () =>
    authorizeReturnTo(request, { dropPrompt: 'login', set: { [interactionParams.authAfter]: String(now) } });
  if (request.prompt.has('login') || !identity) return signIn(afterNow());
  const signedInSinceRequest = request.authAfter !== null && identity.authTime >= request.authAfter;
  if (request.authAfter !== null && !signedInSinceRequest) return signIn(authorizeReturnTo(request));
  if (!signedInSinceRequest && request.maxAge !== null && now - identity.authTime > request.maxAge * 1000)
    return signIn(afterNow());
  return proceed({ identity, request });
}
