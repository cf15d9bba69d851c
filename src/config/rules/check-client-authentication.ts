import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

/**
 * A public client (token_endpoint_auth_method none) has no secret and must
 * use PKCE (docs/oidc.md); a confidential client needs exactly one of
 * client_secret and client_secret_hash. client_credentials needs a client
 * that can authenticate.
 */
export const checkClientAuthentication: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  config.clients.forEach((client, index) => {
    const at = (field: string) => ['clients', index, field];
    const hasSecret = client.client_secret !== undefined;
    const hasHash = client.client_secret_hash !== undefined;
    if (client.token_endpoint_auth_method === 'none') {
      if (hasSecret)
        problems.push(
          error(at('client_secret'), 'must not be set for a public client (token_endpoint_auth_method none)'),
        );
      if (hasHash)
        problems.push(
          error(at('client_secret_hash'), 'must not be set for a public client (token_endpoint_auth_method none)'),
        );
      if (!client.require_pkce)
        problems.push(error(at('require_pkce'), 'must be true for a public client (token_endpoint_auth_method none)'));
      if (client.grant_types.includes('client_credentials'))
        problems.push(
          error(
            at('grant_types'),
            'client_credentials needs a client that authenticates; a public client (token_endpoint_auth_method none) cannot use it',
          ),
        );
      return;
    }
    if (hasSecret && hasHash)
      problems.push(error(at('client_secret_hash'), 'give either client_secret or client_secret_hash, not both'));
    if (!hasSecret && !hasHash) {
      problems.push(
        error(
          ['clients', index],
          `needs client_secret or client_secret_hash (token_endpoint_auth_method ${client.token_endpoint_auth_method ?? 'client_secret_basic'}); use token_endpoint_auth_method none for a public client`,
        ),
      );
    }
  });
  return problems;
};
