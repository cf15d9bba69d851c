/**
 * The `claims` request parameter (OIDC Core §5.5): a JSON object whose
 * `id_token` and `userinfo` members name claims, each null (asked for) or
 * `{ essential, value, values }`. idp releases a requested user claim where
 * it was asked for even when no granted scope holds it, as long as the
 * client may have the scope that does (its `scopes`); the consent covers
 * that scope then. Claims it does not know are ignored (§5.5); `acr` in
 * `id_token` is read by ./acr.ts.
 */
import type { RequestedClaims } from '../model/index.js';
import { OAuthError } from './errors.js';
import { emailClaimNames, groupsClaimName, profileClaimNames } from './user-claims.js';

/** One claim's request (§5.5.1): `value` and `values` as one list, empty when neither was given. */
export interface ClaimRequest {
  essential: boolean;
  values: unknown[];
}

/** The parameter as it was sent, per member: claim name → request. */
export interface ClaimsParameter {
  idToken: ReadonlyMap<string, ClaimRequest>;
  userinfo: ReadonlyMap<string, ClaimRequest>;
}

/** Every user claim this server can release, with the scope that holds it (./user-claims.ts). */
const scopeOfClaim: ReadonlyMap<string, string> = new Map([
  ...profileClaimNames.map((name) => [name, 'profile'] as const),
  ...emailClaimNames.map((name) => [name, 'email'] as const),
  [groupsClaimName, 'groups'] as const,
]);

/** The user claims discovery lists in claims_supported besides the ID token's own. */
export const releasableClaimNames: readonly string[] = [...scopeOfClaim.keys()];

const invalid = (why: string) => new OAuthError('invalid_request', `The claims parameter ${why}.`);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readMember(parameter: Record<string, unknown>, member: 'id_token' | 'userinfo'): Map<string, ClaimRequest> {
  const requests = new Map<string, ClaimRequest>();
  const value = parameter[member];
  if (value === undefined || value === null) return requests;
  if (!isObject(value)) throw invalid(`member ${member} is not a JSON object`);
  for (const [name, request] of Object.entries(value)) {
    if (request === null) {
      requests.set(name, { essential: false, values: [] });
      continue;
    }
    if (!isObject(request)) throw invalid(`asks for ${name} with neither null nor a JSON object`);
    const { essential = false, value: one, values = [] } = request;
    if (typeof essential !== 'boolean') throw invalid(`gives ${name} an essential that is not a boolean`);
    if (!Array.isArray(values)) throw invalid(`gives ${name} values that are not an array`);
    const listed: unknown[] = values;
    requests.set(name, { essential, values: one === undefined ? listed : [one, ...listed] });
  }
  return requests;
}

/** Reads the parameter; malformed JSON or members are invalid_request (§5.5 defines their form). */
export function parseClaimsParameter(raw: string): ClaimsParameter {
  let parameter: unknown;
  try {
    parameter = JSON.parse(raw);
  } catch {
    throw invalid('is not valid JSON');
  }
  if (!isObject(parameter)) throw invalid('is not a JSON object');
  return { idToken: readMember(parameter, 'id_token'), userinfo: readMember(parameter, 'userinfo') };
}

/**
 * The user claims to release per member: known ones whose scope the client
 * may have. Null when nothing is left to release beyond the scopes' claims.
 */
export function requestedUserClaims(
  parameter: ClaimsParameter,
  clientScopes: readonly string[],
): RequestedClaims | null {
  const releasable = (requests: ReadonlyMap<string, ClaimRequest>) =>
    [...requests.keys()].filter((name) => {
      const scope = scopeOfClaim.get(name);
      return scope !== undefined && clientScopes.includes(scope);
    });
  const idToken = releasable(parameter.idToken);
  const userinfo = releasable(parameter.userinfo);
  return idToken.length === 0 && userinfo.length === 0 ? null : { idToken, userinfo };
}

/** The scopes holding requested claims that `scopes` do not already grant: the consent step asks for them too. */
export function scopesOfRequestedClaims(claims: RequestedClaims | null, scopes: readonly string[]): string[] {
  if (claims === null) return [];
  const names = [...claims.idToken, ...claims.userinfo];
  const needed = names.map((name) => scopeOfClaim.get(name)).filter((scope) => scope !== undefined);
  return [...new Set(needed)].filter((scope) => !scopes.includes(scope));
}
