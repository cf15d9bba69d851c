import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

const requiredForGeneric = ['display_name', 'authorization_url', 'token_url'] as const;

/** docs/configuration.md, identity_providers: a generic_oauth provider has no built-in endpoints or label, so the file must give them. */
export const checkGenericOauth: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  config.identity_providers.forEach((provider, index) => {
    if (provider.type !== 'generic_oauth') return;
    for (const field of requiredForGeneric) {
      if (provider[field] === undefined)
        problems.push(
          error(['identity_providers', index], `missing required key "${field}" (required for type generic_oauth)`),
        );
    }
  });
  return problems;
};
