import type { PasskeyService } from '../accounts/passkey-service.js';
import type { ActiveSession } from '../accounts/sessions.js';
import type { TotpEnrolment, TotpService } from '../accounts/totp-service.js';
import { unauthorized } from '../api-error.js';
import type { PasskeyRecord } from '../model/index.js';
import type { SignInService } from './sign-in-service.js';

/**
 * Registering a second factor (docs/http-api.md, "Second factors"): an authenticator app (begin,
 * confirm) or a passkey (options, register), from a signed-in session, or
 * from the pending session of the enrolment step (enrolSecondFactor): a
 * user the policy, or a client's step-up, requires a factor of, who has
 * none. The factor that enrolment confirms completes that sign-in. Any other pending session is
 * refused like an anonymous caller (401 UNAUTHORIZED): its user has a
 * factor to sign in with, and enrolling another would skip it.
 */
export interface EnrolmentService {
  beginTotp(active: ActiveSession): Promise<TotpEnrolment>;
  /** The recovery codes of the confirmed app, and the renewed session's raw id when it completed a sign-in. */
  confirmTotp(
    active: ActiveSession,
    code: string,
    clientAddress: string,
  ): Promise<{ recoveryCodes: string[]; sessionId: string | null }>;
  passkeyOptions(active: ActiveSession): ReturnType<PasskeyService['registrationOptions']>;
  registerPasskey(
    active: ActiveSession,
    response: unknown,
    name: string,
    clientAddress: string,
  ): Promise<{ passkey: PasskeyRecord; sessionId: string | null }>;
}

export function createEnrolmentService(deps: {
  totp: TotpService;
  passkeys: PasskeyService;
  signIn: SignInService;
}): EnrolmentService {
  // The sign-in steps decide, as for the login's answer: a pending session may enrol when it awaits an enrolment.
  const mayEnrol = async (active: ActiveSession) => {
    if (!active.session.secondFactorPending) return;
    if (!(await deps.signIn.awaitedFactors(active)).enrolmentRequired) throw unauthorized();
  };

  return {
    async beginTotp(active) {
      await mayEnrol(active);
      return deps.totp.begin(active.user);
    },
    async confirmTotp(active, code, clientAddress) {
      await mayEnrol(active);
      const recoveryCodes = await deps.totp.confirm(active.user, code, clientAddress);
      const sessionId = active.session.secondFactorPending
        ? await deps.signIn.completeSecondFactor(active, 'otp', clientAddress)
        : null;
      return { recoveryCodes, sessionId };
    },
    async passkeyOptions(active) {
      await mayEnrol(active);
      return deps.passkeys.registrationOptions(active.user, active.session.idHash);
    },
    async registerPasskey(active, response, name, clientAddress) {
      await mayEnrol(active);
      const passkey = await deps.passkeys.register(active.user, active.session.idHash, response, name, clientAddress);
      // The authenticator verified its user to create the key (userVerification: required): the sign-in's second factor.
      const sessionId = active.session.secondFactorPending
        ? await deps.signIn.completeSecondFactor(active, 'hwk', clientAddress)
        : null;
      return { passkey, sessionId };
    },
  };
}
