/**
 * The sign-in (docs/oidc.md, "Interaction: the sign-in steps"): one list of named steps, ./sign-in-steps.ts,
 * that every way of signing in passes through:
 *
 *   identify → selectAccount → secondFactor → enrolSecondFactor → access → clientSecondFactor → emailVerified → terms → consent → (answer)
 *
 * - identify: someone signed in, recently enough for the request
 *   (prompt=login, max_age)? If not: /login?return_to=….
 * - selectAccount: prompt=select_account: /login?…&select_account=true,
 *   which offers the accounts remembered in this browser.
 * - secondFactor: a new sign-in of a user who has a second factor waits
 *   for one (the login API answers second_factor_required), unless it was
 *   made with one (a passkey).
 * - enrolSecondFactor: a new sign-in of a user who must use a second factor
 *   and has none waits for the enrolment of one (enrolment_required).
 * - access: with an authorization request, a user outside the client's
 *   `access` rule (groups, roles: src/access) goes to
 *   /access-denied?return_to=… ("Use another account", or "Back to" the
 *   client, which comes back with access_denied=true and ends the request
 *   with access_denied); under prompt=none, access_denied. Records
 *   access.denied once per refusal.
 * - clientSecondFactor: a client that requires a second factor
 *   (`clients[].access.second_factor`), or a request that demands acr
 *   aal2 (acr_values, an essential acr claim), with a session without one:
 *   /login/second-factor?return_to=…&step_up=true, where the user starts
 *   the step-up (POST /api/auth/step-up: the session waits for a factor,
 *   or its enrolment, again); under prompt=none, interaction_required.
 * - emailVerified: a user who must verify their e-mail and has not gets
 *   no sign-in (the login API answers 403 EMAIL_NOT_VERIFIED; a session of
 *   such a user is sent back to /login).
 * - terms: a required explicit term (or an implicit one) not accepted at its
 *   current version: /terms?return_to=…; a Decline ends the request with
 *   access_denied; under prompt=none, interaction_required.
 * - consent: scopes (with those of the claims the `claims` parameter asks
 *   for) not granted yet, or prompt=consent: /consent?return_to=…;
 *   after a Deny the request ends with access_denied.
 * - answer is the caller's: the authorization endpoint issues a code, the
 *   login API creates the session.
 *
 * Two callers run the list. The authorization endpoint
 * (src/oidc/authorize, resolveInteraction; and the device verification,
 * src/oidc/device, for a device's request) runs it on every request, with
 * the cookie's session: the first step that does not pass names the page
 * to send the browser to (under prompt=none, the error instead). Each page
 * ends by going back to return_to, where the list runs again, so no page
 * decides what comes next. A sign-in method (POST /api/auth/login, a
 * passkey, in ./sign-in-service.ts) runs it with the identity it has just
 * established and no request; the session it creates records how far that
 * got. A second factor (or the enrolment of one, ./enrolment-service.ts)
 * runs it again with the method added to the identity's amr, and the
 * pending session becomes full. A
 * remembered account (POST /api/auth/accounts/select) brings back a session
 * that passed the list when it was created.
 *
 * A step is a function of the state (who, how and since when, which
 * session, the request if any: ./sign-in-state.ts) and SignInDeps; it
 * returns a StepResult (./step-result.ts): continue with the state, a page,
 * a wait for a second factor, or a refusal. Nothing else is shared.
 *
 * Where a new sign-in step goes: write it as ./steps/<name>.ts, one exported
 * function `(state: Identified, deps: SignInDeps) => StepResult`. It decides
 * from `state.identity` (kind 'new': a sign-in happening now; 'session': a
 * session that passed every step when it was created) and `state.request`
 * (null: a sign-in through the API, without an authorization request). Add
 * what it reads to SignInDeps (./sign-in-deps.ts), its page location to
 * ./interaction-location.ts, insert it into signInSteps at its place in
 * the order docs/oidc.md states, and give it a decision table in test/interaction/.
 * Only when it needs an answer that StepResult cannot express yet does a
 * caller change: add the kind there and answer it in ./sign-in-service.ts
 * and src/oidc/authorize/resolve-interaction.ts.
 */
export { signInSteps } from './sign-in-steps.js';
export { runSignIn, type SignInResult } from './run-sign-in.js';
export type {
  Identified,
  Identity,
  NewIdentity,
  PendingAuthorization,
  Prompt,
  DeviceRequest,
  SessionIdentity,
  SignInStart,
} from './sign-in-state.js';
export type { StepResult } from './step-result.js';
export { createSignInDeps, type SignInDeps } from './sign-in-deps.js';
export {
  createSignInService,
  type PasskeySignInOutcome,
  type SecondFactorMethod,
  type SignInOutcome,
  type SignInService,
} from './sign-in-service.js';
export { createEnrolmentService, type EnrolmentService } from './enrolment-service.js';
export { authorizePath, deviceVerificationPath, interactionParams } from './interaction-location.js';
export { isSafeReturnTo, maxReturnToLength } from './return-to.js';
export {
  createConsentService,
  type ConsentService,
  type ConsentPrompt,
  type ConsentDecision,
  type ReadAuthorizationRequest,
} from './consent-service.js';
export { createAccessDenial, type AccessDenial, type AccessDenialPrompt } from './access-denial.js';
export { describeScope } from './scope-descriptions.js';
export {
  createRememberedAccounts,
  rememberedAccountsCookie,
  type RememberedAccounts,
  type RememberedAccount,
} from './remembered-accounts.js';
