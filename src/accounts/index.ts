/**
 * Accounts: the credentials of a person and what proves them. Passwords
 * (argon2id), server-side browser sessions (the `session` cookie points at a
 * row), password sign-in with its rate limit per account and per address,
 * and second factors: an authenticator app (TOTP) with recovery codes, and
 * passkeys (WebAuthn). Orchestrating a whole sign-in (which steps, in which
 * order) is src/interaction's job; this folder answers "is this credential
 * right?" and "who is this session?".
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
