import type { PasskeyRepository, RecoveryCodeRepository, TotpRepository, Tx } from '../storage/repositories.js';
import type { SessionEnd } from './session-end.js';

/**
 * For a user who lost their device (docs/http-api.md, "Second factors", the admin's
 * DELETE /api/admin/users/{sub}/second-factors): their authenticator app,
 * recovery codes and passkeys are removed, and their sessions end (with what
 * they issued, ./session-end.ts), inside
 * the caller's transaction. The next sign-in is a password alone, or the
 * enrolment at sign-in when the policy requires a factor. Answers what was
 * removed (for the audit event).
 */
export type SecondFactorReset = (tx: Tx, sub: string) => Promise<{ totp: boolean; passkeys: number }>;

export function createSecondFactorReset(deps: {
  totp: TotpRepository;
  recoveryCodes: RecoveryCodeRepository;
  passkeys: PasskeyRepository;
  sessionEnd: SessionEnd;
}): SecondFactorReset {
  return async (tx, sub) => {
    const totp = (await deps.totp.findConfirmedSubs(tx, [sub])).has(sub);
    await deps.totp.delete(tx, sub);
    await deps.recoveryCodes.deleteBySub(tx, sub);
    const passkeys = await deps.passkeys.deleteBySub(tx, sub);
    await deps.sessionEnd.allOf(tx, [sub]);
    return { totp, passkeys };
  };
}
