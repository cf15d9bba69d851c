import type { AuthConfig } from '../config/types.js';
import type { UserRecord } from '../model/index.js';
import type { PasskeyRepository, RecoveryCodeRepository, TotpRepository, Tx } from '../storage/repositories.js';

/**
 * What a user has registered as second factors. The admin API reports it
 * (the admin user's totp_registered, totp_recovery_codes_missing, passkey_count: docs/http-api.md, "Admin API")
 * and the sign-in decides with it whether a second step is needed.
 */
export interface UserFactorSummary {
  totpRegistered: boolean;
  /** Recovery codes not used yet (only meaningful when TOTP is registered). */
  unusedRecoveryCodes: number;
  passkeyCount: number;
}

/** The names of the factors in the login answer's `factors` (docs/http-api.md, "Second factors"). */
export type SecondFactor = 'totp' | 'recovery_code' | 'passkey';

export interface UserFactorReader {
  summarize(subs: string[]): Promise<Map<string, UserFactorSummary>>;
}

export const noFactors: UserFactorSummary = { totpRegistered: false, unusedRecoveryCodes: 0, passkeyCount: 0 };

/** Three queries for any number of users (a page of the admin list): confirmed TOTPs, unused codes, passkeys. */
export function createUserFactorReader(deps: {
  db: Tx;
  totp: TotpRepository;
  recoveryCodes: RecoveryCodeRepository;
  passkeys: PasskeyRepository;
}): UserFactorReader {
  return {
    async summarize(subs) {
      const [totp, codes, passkeys] = [
        await deps.totp.findConfirmedSubs(deps.db, subs),
        await deps.recoveryCodes.countUnused(deps.db, subs),
        await deps.passkeys.countBySubs(deps.db, subs),
      ];
      return new Map(
        subs.map((sub) => [
          sub,
          {
            totpRegistered: totp.has(sub),
            unusedRecoveryCodes: codes.get(sub) ?? 0,
            passkeyCount: passkeys.get(sub) ?? 0,
          },
        ]),
      );
    },
  };
}

/** The admin user's second_factor_required (docs/http-api.md, "Admin API"): the user's own flag or the auth.second_factor policy. */
export function isSecondFactorRequired(user: UserRecord, policy: AuthConfig['secondFactor']): boolean {
  if (user.secondFactorRequired || policy === 'required') return true;
  return policy === 'required_for_admins' && user.role === 'admin';
}

/**
 * The factors a user can complete a sign-in with, in the order the UI
 * offers them. Passkeys count only while auth.passkeys_enabled is on.
 */
export function availableFactors(summary: UserFactorSummary, passkeysEnabled: boolean): SecondFactor[] {
  const factors: SecondFactor[] = [];
  if (passkeysEnabled && summary.passkeyCount > 0) factors.push('passkey');
  if (summary.totpRegistered) factors.push('totp');
  if (summary.totpRegistered && summary.unusedRecoveryCodes > 0) factors.push('recovery_code');
  return factors;
}

/**
 * RFC 8176 methods that are a second factor beside a password: a one-time
 * code (TOTP or a recovery code) or a hardware-bound key (a passkey, whose
 * authenticator also verified the user, so it stands for both factors alone).
 */
export function hasSecondFactor(amr: readonly string[]): boolean {
  return amr.includes('otp') || amr.includes('hwk');
}
