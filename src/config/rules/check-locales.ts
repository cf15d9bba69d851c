import { error, type ConfigRule } from './config-rule.js';

/** The fallback locale must be one the service offers. */
export const checkLocales: ConfigRule = (config) =>
  config.i18n.locales.includes(config.i18n.default_locale)
    ? []
    : [error(['i18n', 'default_locale'], 'is not one of i18n.locales')];
