import { ApiError } from '../api-error.js';
import type { LoginRateLimit } from './login-rate-limit.js';

/**
 * Confirms a signed-in user's own password before a change that needs it
 * (a new password, deleting the account). Each try counts against the
 * login rate limit of the account and the client address, exactly as a
 * login does (docs/http-api.md "Login rate limit"): a stolen session must
 * not become a way to guess the password. A right password clears the
 * account's counter; a wrong one answers 401 INVALID_CREDENTIALS.
 */
export interface PasswordConfirmation {
  /** `account`: the user's e-mail (the rate limit's key) and the stored hash. */
  confirm(account: { email: string; passwordHash: string }, password: string, clientAddress: string): Promise<void>;
}

export const wrongPassword = () => new ApiError(401, 'INVALID_CREDENTIALS', 'The password is incorrect.');

export function createPasswordConfirmation(deps: {
  rateLimit: LoginRateLimit;
  verifyPassword(hash: string, plain: string): Promise<boolean>;
}): PasswordConfirmation {
  return {
    async confirm(account, password, clientAddress) {
      const keys = { account: account.email.toLowerCase(), clientAddress };
      await deps.rateLimit.check(keys);
      const countedAt = await deps.rateLimit.beginAttempt(keys);
      if (!(await deps.verifyPassword(account.passwordHash, password))) throw wrongPassword();
      await deps.rateLimit.recordSuccess(keys, countedAt);
    },
  };
}
