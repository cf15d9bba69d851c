import type { NewEventRecord } from '../model/index.js';

/** The `method` label of `idp_sign_ins_total`: how the sign-in's last step proved who it was. */
export type SignInMethod = 'password' | 'passkey' | 'upstream' | 'second_factor';

export interface SignInOutcome {
  method: SignInMethod;
  outcome: 'success' | 'failure';
}

/** RFC 8176 amr of a one-step sign-in → its method; two entries mean a second factor completed it. */
const firstFactors: Partial<Record<string, SignInMethod>> = { pwd: 'password', hwk: 'passkey', fed: 'upstream' };

/** The `method` of a refusal event → its label; a passkey refusal depends on whether it was a second factor. */
const refusedMethods: Partial<Record<string, SignInMethod>> = {
  password: 'password',
  totp: 'second_factor',
  recovery_code: 'second_factor',
};

/**
 * What a sign-in event (src/interaction/sign-in-service.ts,
 * src/accounts/password-login.ts) counts as, or null for any other event.
 * A refused passkey with a known subject answered a pending session's
 * second factor; without one it was a passwordless attempt. A rate-limited
 * attempt is a failure. Only fixed label values come out: never an
 * address, an e-mail or a sub.
 */
export function signInOutcome(event: NewEventRecord): SignInOutcome | null {
  const { detail } = event;
  if (event.type === 'sign_in.succeeded') {
    const amr = Array.isArray(detail.amr) ? (detail.amr as readonly string[]) : [];
    const method = amr.length === 1 ? firstFactors[amr[0]] : amr.length > 1 ? 'second_factor' : undefined;
    return method ? { method, outcome: 'success' } : null;
  }
  if (event.type === 'sign_in.failed' || event.type === 'sign_in.rate_limited') {
    const refused = String(detail.method);
    const method = refused === 'passkey' ? (event.subject ? 'second_factor' : 'passkey') : refusedMethods[refused];
    return method ? { method, outcome: 'failure' } : null;
  }
  return null;
}
