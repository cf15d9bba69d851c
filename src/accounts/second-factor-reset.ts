import type { PasskeyRepository, RecoveryCodeRepository, SessionRepository, TotpRepository, Tx } from '../storage/repositories.js';

/**
 * For a user who lost their device (DESIGN.md 11, the admin's
 * DELETE /api/admin/users/{sub}/second-factors): their authenticator app,
 * recovery codes and passkeys are removed, and their sessions end, inside
 * the caller's transaction. The next sign-in is a password alone, or the
 * enrolment at sign-in when the policy requires a factor.
 */
export type SecondFactorReset = (tx: Tx, sub: string) => Promise<void>;

export function createSecondFactorReset(deps: {
  totp: TotpRepository;
  recoveryCodes: RecoveryCodeRepository;
  passkeys: PasskeyRepository;
  sessions: SessionRepository;
}): SecondFactorReset {
  return async (tx, sub) => {
    await deps.totp.delete(tx, sub);
    await deps.recoveryCodes.deleteBySub(tx, sub);
    await deps.passkeys.deleteBySub(tx, sub);
    await deps.sessions.deleteBySub(tx, sub);
  };
}
