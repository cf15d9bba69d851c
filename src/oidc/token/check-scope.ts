import { OAuthError } from '../errors.js';
import { parseScope } from '../scopes.js';

/**
 * The scope step of every grant (RFC 6749 §3.3). Without a scope parameter
 * the request gets everything it may have: the documented default of
 * docs/oidc.md. With one, every scope must be among those, else
 * invalid_scope in the grant's words.
 */
export function checkScope(requested: string | undefined, allowed: string[], refusal: string): string[] {
  if (requested === undefined) return allowed;
  const scopes = parseScope(requested);
  const refused = scopes.filter((s) => !allowed.includes(s));
  if (refused.length > 0) throw new OAuthError('invalid_scope', `${refusal}${refused.join(' ')}.`);
  return scopes;
}
