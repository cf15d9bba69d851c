import { randomUUID } from 'node:crypto';
import { ApiError } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { RegistrationConfig } from '../config/types.js';
import type { Tx, UserRepository } from '../storage/repositories.js';
import type { UserRecord } from '../model/index.js';

/**
 * The account of a first sign-in through an upstream provider (SPEC 2.5:
 * registration gates first-time OAuth signup): refused unless
 * registration.enabled and the address passes allowed_email_patterns. The
 * account is database-managed and has no password; its address is verified
 * when the upstream says so, and otherwise has to be verified like a
 * password signup's (registration.email_verification_required).
 */
export function createUpstreamSignup(deps: { users: UserRepository; registration: RegistrationConfig; clock: Clock }) {
  const { registration } = deps;
  return async (tx: Tx, input: { email: string; emailVerified: boolean }): Promise<UserRecord> => {
    if (!registration.enabled) throw new ApiError(403, 'REGISTRATION_DISABLED', 'Self-registration is not enabled on this server.');
    if (!isEmailAllowed(input.email, registration.allowedEmailPatterns)) {
      throw new ApiError(403, 'EMAIL_NOT_ALLOWED', 'This e-mail address may not be used to register here.');
    }
    const now = deps.clock.now();
    const user: UserRecord = {
      sub: randomUUID(),
      managedBy: 'database',
      email: input.email,
      name: null,
      givenName: null,
      familyName: null,
      locale: null,
      role: 'user',
      emailVerified: input.emailVerified,
      emailVerificationRequired: !input.emailVerified && registration.emailVerificationRequired,
      passwordHash: null,
      secondFactorRequired: false,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await deps.users.insert(tx, user);
    return user;
  };
}

function isEmailAllowed(email: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  const address = email.toLowerCase();
  return patterns.some((pattern) => {
    const literal = pattern.toLowerCase().split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return new RegExp(`^${literal.join('.*')}$`).test(address);
  });
}
