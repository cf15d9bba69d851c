/**
 * Authentication context (OIDC Core §2 `acr`), in NIST SP 800-63B's
 * assurance levels: `aal2` when the sign-in used two factors (a password
 * and a one-time code, or a passkey, whose authenticator verified its user:
 * RFC 8176 `otp` or `hwk` in amr), else `aal1`. A request may ask for
 * `aal2` (acr_values, or an essential `acr` claim); the sign-in steps then
 * step an `aal1` session up through the second factor before consent.
 */
import { hasSecondFactor } from '../accounts/login-second-factors.js';
import type { ClaimRequest } from './claims-request.js';

export const acrValuesSupported = ['aal1', 'aal2'] as const;
export type Acr = (typeof acrValuesSupported)[number];

/** The acr of a sign-in, from its amr (a session's, a code's, a grant's). */
export function acrOf(amr: readonly string[]): Acr {
  return hasSecondFactor(amr) ? 'aal2' : 'aal1';
}

/**
 * `aal2` when the request demands it: acr_values (space-separated, in order
 * of preference, §3.1.2.1) or the values of an essential `acr` claim name
 * `aal2` and not `aal1`, which `aal1` would meet. Unknown values are
 * ignored; a voluntary `acr` claim asks for nothing.
 */
export function requiredAcr(acrValues: string | undefined, acrClaim: ClaimRequest | undefined): 'aal2' | null {
  const demands = (values: readonly unknown[]) => values.includes('aal2') && !values.includes('aal1');
  if (acrValues !== undefined && demands(acrValues.split(' '))) return 'aal2';
  if (acrClaim?.essential && demands(acrClaim.values)) return 'aal2';
  return null;
}
