/**
 * Accounts: the credentials of a person and what proves them. Passwords
 * (argon2id), server-side browser sessions (the `session` cookie points at a
 * row), password sign-in with its rate limit per account and per address,
 * and the second factors a user has registered. Orchestrating a whole
 * sign-in (which steps, in which order) is src/interaction's job; this
 * folder answers "is this credential right?" and "who is this session?".
 */
export { hashPassword, verifyPassword } from './passwords.js';
export { createSessionService, hashSessionId, type ActiveSession, type SessionService } from './sessions.js';
export { createLoginRateLimit, type LoginRateLimit } from './login-rate-limit.js';
export { createPasswordLogin, type PasswordLogin, type PasswordLoginInput } from './password-login.js';
export { noRegisteredFactors, type SecondFactor, type UserFactorReader, type UserFactorSummary } from './login-second-factors.js';
export { createUserConsents, type UserConsent, type UserConsents } from './user-consents.js';
