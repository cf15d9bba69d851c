import type { AuthConfig } from '../config/types.js';
import type { UserRecord } from '../model/index.js';

/**
 * What a user has registered as second factors. The admin API reports it
 * (SPEC.md 2.1 totp_registered, totp_recovery_codes_missing, passkey_count)
 * and the login decides with it whether a second step is needed.
 */
export interface UserFactorSummary {
  totpRegistered: boolean;
  /** Recovery codes not used yet (only meaningful when TOTP is registered). */
  unusedRecoveryCodes: number;
  passkeyCount: number;
}

export type SecondFactor = 'totp' | 'recovery_code' | 'passkey';

export interface UserFactorReader {
  summarize(subs: string[]): Promise<Map<string, UserFactorSummary>>;
}

export const noFactors: UserFactorSummary = { totpRegistered: false, unusedRecoveryCodes: 0, passkeyCount: 0 };

/**
 * The reader to use while no TOTP or passkey storage exists: nobody has a
 * second factor registered. The TOTP/passkey capability replaces it in
 * src/app.ts with one that reads its tables.
 */
export const noRegisteredFactors: UserFactorReader = {
  async summarize(subs) {
    return new Map(subs.map((sub) => [sub, noFactors]));
  },
};

/** SPEC.md 2.1 second_factor_required: the user's own flag or the auth.second_factor policy. */
export function isSecondFactorRequired(user: UserRecord, policy: AuthConfig['secondFactor']): boolean {
  if (user.secondFactorRequired || policy === 'required') return true;
  return policy === 'required_for_admins' && user.role === 'admin';
}

/** The factors a user can complete a sign-in with, in the order the UI offers them. */
export function availableFactors(summary: UserFactorSummary): SecondFactor[] {
  const factors: SecondFactor[] = [];
  if (summary.passkeyCount > 0) factors.push('passkey');
  if (summary.totpRegistered) factors.push('totp');
  if (summary.totpRegistered && summary.unusedRecoveryCodes > 0) factors.push('recovery_code');
  return factors;
}
