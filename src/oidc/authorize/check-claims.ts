import type { RequestedClaims } from '../../model/index.js';
import { requiredAcr } from '../acr.js';
import { parseClaimsParameter, requestedUserClaims, scopesOfRequestedClaims } from '../claims-request.js';
import type { WithPrompt } from './check-prompt.js';

export interface WithClaims extends WithPrompt {
  /** The user claims of the `claims` parameter to release beyond the scopes' (../claims-request.ts); null: none. */
  claims: RequestedClaims | null;
  /** The scopes of those claims that `scopes` lack: the consent covers them too. */
  claimScopes: string[];
  /** `aal2` when acr_values or an essential acr claim demands it (../acr.ts); the sign-in steps step up to it. */
  requiredAcr: 'aal2' | null;
  /** The `sub` the ID token must have (a `sub` claim with a value, §5.5.1); null: anyone. */
  requiredSub: string | null;
}

function requestedSub(values: readonly unknown[] | undefined): string | null {
  const [value] = values ?? [];
  return typeof value === 'string' ? value : null;
}

/** OIDC Core §5.5 `claims` and §3.1.2.1 `acr_values`; a malformed `claims` is invalid_request, sent to the client. */
export function checkClaims(state: WithPrompt): WithClaims {
  // Only the parameters that were sent are there.
  const params: Readonly<Partial<Record<string, string>>> = state.params;
  const parameter = params.claims === undefined ? null : parseClaimsParameter(params.claims);
  const claims = parameter && requestedUserClaims(parameter, state.client.scopes);
  return {
    ...state,
    claims,
    claimScopes: scopesOfRequestedClaims(claims, state.scopes),
    requiredAcr: requiredAcr(params.acr_values, parameter?.idToken.get('acr')),
    requiredSub: requestedSub(parameter?.idToken.get('sub')?.values),
  };
}
