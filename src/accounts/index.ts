/**
 * Accounts: the credentials of a person and what proves them. Passwords
 * (argon2id), server-side browser sessions (the `session` cookie points at a
 * row), password sign-in with its rate limit per account and per address,
 * second factors (an authenticator app with recovery codes, passkeys), what
 * a signed-in user does to their own account (edit the profile, change the
 * password, delete the account: each confirmed, and ending what it must
 * end), and self-service through mailed links: registration, e-mail
 * verification and a forgotten password, whose single-use link tokens
 * (./link-tokens.ts) the account mails carry (./account-mail.ts, the
 * handler of the `mail.send` jobs). Orchestrating a whole sign-in (which
 * steps, in which order) is src/interaction's job; this folder answers "is
 * this credential right?",
 * "who is this session?" and "may this user change that?".
 */
export { hashPassword, verifyPassword } from './passwords.js';
export { createSessionService, hashSessionId, type ActiveSession, type SessionService } from './sessions.js';
export { attemptWithinLimit, createLoginRateLimit, type LoginRateLimit } from './login-rate-limit.js';
export { createPasswordLogin, type PasswordLogin, type PasswordLoginInput } from './password-login.js';
export {
  availableFactors,
  createUserFactorReader,
  hasSecondFactor,
  isSecondFactorRequired,
  noFactors,
  type SecondFactor,
  type UserFactorReader,
  type UserFactorSummary,
} from './login-second-factors.js';
export { createTotpService, type TotpEnrolment, type TotpService } from './totp-service.js';
export { createPasskeyService, challengeTtlMs, type PasskeyService, type PendingSignIn } from './passkey-service.js';
export { createSecondFactorReset, type SecondFactorReset } from './second-factor-reset.js';
export { createUserConsents, type UserConsent, type UserConsents } from './user-consents.js';
export { createPasswordConfirmation, type PasswordConfirmation } from './confirm-password.js';
export { checkNewPassword } from './check-new-password.js';
export { createProfileUpdater, type ProfileChanges, type ProfileUpdater } from './update-profile.js';
export { createPasswordChanger, type PasswordChangeInput, type PasswordChanger } from './change-password.js';
export {
  createOwnAccountDeletion,
  type DeletedAccount,
  type OwnAccountDeletion,
  type OwnAccountDeletionInput,
} from './delete-own-account.js';
export { createLinkTokens, type LinkTokens } from './link-tokens.js';
export { createRequestRateLimit, type RequestRateLimit } from './request-rate-limit.js';
export { createMailRequest, type MailRequest, type MailRequestInput } from './mail-request.js';
export { createRegistration, type Registration, type RegistrationInput, type Registered } from './registration.js';
export { createEmailVerification, type EmailVerification } from './email-verification.js';
export { createPasswordReset, type PasswordReset } from './password-reset.js';
export { createAccountMail, type AccountMail, type MailOutcome } from './account-mail.js';
export {
  createUserTerms,
  type OutstandingTerms,
  type TermStanding,
  type TermVersionStatus,
  type UserTerms,
} from './user-terms.js';
export { createSignOut, type SignOut } from './sign-out.js';
export { createSessionEnd, type SessionEnd } from './session-end.js';
export type { BackchannelLogoutJob, LogoutOutbox } from './logout-outbox.js';
