import type { IdentityProviderFile } from '../file-types.js';
import { error, warning, type ConfigRule, type RuleProblem } from './config-rule.js';

/** Apple refuses a client secret whose exp is more than six months after its iat. */
const appleMaxLifetimeSeconds = 15_777_000;
/** A secret that ends this soon is worth a warning: sign-in with Apple stops the day it does. */
const appleRenewWithinSeconds = 14 * 86_400;

/**
 * What each provider type needs to sign anyone in (docs/configuration.md,
 * identity_providers), beyond the generic_oauth keys of ./check-generic-oauth.ts:
 * - google signs in with OpenID Connect: its scopes must include openid;
 * - apple's client secret is the ES256 JWT the operator signs with their
 *   Sign in with Apple key: kid in the header; iss the team id; sub the
 *   client_id (the services id); aud https://appleid.apple.com; not expired,
 *   and at most six months long (warned two weeks before it ends);
 * - generic_oauth without openid learns who signed in from userinfo_url only;
 * - github reads the verified address from /user/emails, which needs user:email.
 * Warned: auto_link on a generic_oauth provider with neither openid nor
 * email_url, whose userinfo may never say an address is verified (auto_link
 * then always asks the person to link).
 */
export const checkIdentityProviders: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  const now = Math.floor(Date.now() / 1000);
  config.identity_providers.forEach((provider, index) => {
    const at = ['identity_providers', index] as const;
    const scopes = provider.scopes;
    switch (provider.type) {
      case 'google':
        if (scopes && !scopes.includes('openid'))
          problems.push(error([...at, 'scopes'], 'must include openid: google signs in with OpenID Connect'));
        break;
      case 'github':
        if (scopes && !scopes.includes('user:email')) {
          problems.push(
            warning(
              [...at, 'scopes'],
              'has no user:email: GitHub then does not show idp the verified address, and new users cannot sign up',
            ),
          );
        }
        break;
      case 'apple':
        problems.push(...checkAppleClientSecret(provider, [...at, 'client_secret'], now));
        break;
      case 'generic_oauth': {
        const openId = scopes?.includes('openid') ?? true;
        if (!openId && (provider.userinfo_url === undefined || provider.userinfo_url === null)) {
          problems.push(error([...at], 'needs userinfo_url (or the openid scope) to learn who signed in'));
        }
        if (provider.email_conflict_strategy === 'auto_link' && !openId && provider.email_url === undefined) {
          problems.push(
            warning(
              [...at, 'email_conflict_strategy'],
              'auto_link links only addresses the upstream marks verified (email_verified: true); without openid or an email_url listing verified addresses, users whose address matches an account will be asked to link instead',
            ),
          );
        }
        break;
      }
    }
  });
  return problems;
};

function checkAppleClientSecret(
  provider: IdentityProviderFile,
  path: readonly (string | number)[],
  now: number,
): RuleProblem[] {
  // An unset ${VAR} is reported by the interpolation already.
  if (provider.client_secret.includes('${')) return [];
  const jwt = decodeJwt(provider.client_secret);
  const what =
    'must be the client secret JWT of Sign in with Apple (ES256, signed with your key; docs/configuration.md)';
  if (!jwt) return [error(path, `${what}: it is not a JWT`)];
  const { header, payload } = jwt;
  const problems: string[] = [];
  if (header.alg !== 'ES256') problems.push(`its alg is ${String(header.alg)}, not ES256`);
  if (typeof header.kid !== 'string' || header.kid === '') problems.push('its header has no kid (the key id)');
  if (typeof payload.iss !== 'string' || payload.iss === '') problems.push('it has no iss (your team id)');
  if (payload.sub !== provider.client_id)
    problems.push(`its sub is ${JSON.stringify(payload.sub)}, not the client_id ${JSON.stringify(provider.client_id)}`);
  if (payload.aud !== 'https://appleid.apple.com') problems.push('its aud is not https://appleid.apple.com');
  if (typeof payload.exp !== 'number') problems.push('it has no exp');
  else if (payload.exp <= now) problems.push(`it expired on ${new Date(payload.exp * 1000).toISOString()}`);
  else if (typeof payload.iat === 'number' && payload.exp - payload.iat > appleMaxLifetimeSeconds)
    problems.push('it is valid for more than six months, which Apple refuses');
  if (problems.length > 0) return [error(path, `${what}: ${problems.join('; ')}`)];
  if ((payload.exp as number) - now < appleRenewWithinSeconds) {
    return [
      warning(path, `expires on ${new Date((payload.exp as number) * 1000).toISOString()}: sign a new one before then`),
    ];
  }
  return [];
}

function decodeJwt(text: string): { header: Record<string, unknown>; payload: Record<string, unknown> } | null {
  const parts = text.split('.');
  if (parts.length !== 3) return null;
  try {
    const [header, payload] = parts
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown);
    const isObject = (value: unknown): value is Record<string, unknown> =>
      typeof value === 'object' && value !== null && !Array.isArray(value);
    return isObject(header) && isObject(payload) ? { header, payload } : null;
  } catch {
    return null;
  }
}
