import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

/** A client that uses the authorization code grant cannot be sent back anywhere without a redirect URI. */
export const checkAuthorizationCodeRedirects: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  config.clients.forEach((client, index) => {
    if (client.grant_types.includes('authorization_code') && client.redirect_uris.length === 0) {
      problems.push(
        error(['clients', index], 'needs at least one redirect_uris entry to use the authorization_code grant'),
      );
    }
  });
  return problems;
};
