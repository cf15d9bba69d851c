import { ApiError } from '../api-error.js';
import type { AuthConfig } from '../config/types.js';
import type { Tx, UserRepository } from '../storage/repositories.js';
import type { UserRecord } from '../model/index.js';
import type { LoginRateLimit } from './login-rate-limit.js';
import { availableFactors, isSecondFactorRequired, noFactors, type SecondFactor, type UserFactorReader } from './login-second-factors.js';
import type { SessionService } from './sessions.js';

/**
 * Password sign-in (DESIGN.md 6), as steps:
 * checkRateLimit → beginAttempt → findLiveUser → verifyPassword → recordOutcome →
 * decideSecondFactor → createSession.
 * A wrong e-mail, a wrong password, a user without a password and a
 * soft-deleted user all answer the same 401 INVALID_CREDENTIALS after the
 * same argon2 work, so the answer does not reveal which accounts exist.
 */
export type LoginOutcome =
  | { status: 'authenticated'; sessionId: string; user: UserRecord }
  | { status: 'second_factor_required'; sessionId: string; user: UserRecord; factors: SecondFactor[] };

export interface LoginInput {
  email: string;
  password: string;
  clientAddress: string;
}

export interface LoginService {
  login(input: LoginInput): Promise<LoginOutcome>;
}

export const invalidCredentials = () => new ApiError(401, 'INVALID_CREDENTIALS', 'The email or password is incorrect.');

export function createLoginService(deps: {
  db: Tx;
  users: UserRepository;
  sessions: SessionService;
  rateLimit: LoginRateLimit;
  factors: UserFactorReader;
  auth: AuthConfig;
  hashPassword(plain: string): Promise<string>;
  verifyPassword(hash: string, plain: string): Promise<boolean>;
}): LoginService {
  let decoyHash: Promise<string> | undefined;
  // Spends the same argon2 time when there is no hash to check against.
  const decoy = () => (decoyHash ??= deps.hashPassword('decoy password that never matches'));

  return {
    async login({ email, password, clientAddress }) {
      const keys = { account: email.trim().toLowerCase(), clientAddress };
      await deps.rateLimit.check(keys);
      const countedAt = await deps.rateLimit.beginAttempt(keys);
      const user = await deps.users.findLiveByEmail(deps.db, keys.account);
      const hash = user?.passwordHash ?? (await decoy());
      const matches = (await deps.verifyPassword(hash, password)) && Boolean(user?.passwordHash);
      if (!user || !matches) throw invalidCredentials();
      await deps.rateLimit.recordSuccess(keys, countedAt);

      if (isSecondFactorRequired(user, deps.auth.secondFactor)) {
        const summary = (await deps.factors.summarize([user.sub])).get(user.sub) ?? noFactors;
        const { id } = await deps.sessions.create({ sub: user.sub, amr: ['pwd'], secondFactorPending: true });
        return { status: 'second_factor_required', sessionId: id, user, factors: availableFactors(summary) };
      }
      const { id } = await deps.sessions.create({ sub: user.sub, amr: ['pwd'] });
      return { status: 'authenticated', sessionId: id, user };
    },
  };
}
