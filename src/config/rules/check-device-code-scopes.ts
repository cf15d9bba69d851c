import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

const deviceCodeGrant = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * The device authorization endpoint requires the openid scope (as the
 * authorization endpoint does): a device client without it could never
 * get a code. It needs no redirect URI, and may be public.
 */
export const checkDeviceCodeScopes: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  config.clients.forEach((client, index) => {
    if (client.grant_types.includes(deviceCodeGrant) && !client.scopes.includes('openid'))
      problems.push(error(['clients', index, 'scopes'], `needs openid to use the ${deviceCodeGrant} grant`));
  });
  return problems;
};
