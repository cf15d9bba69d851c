import { warning, type ConfigRule } from './config-rule.js';

/** docs/configuration.md, security: without security.secret a random one is generated and stored in the database. */
export const checkSecret: ConfigRule = (config) =>
  config.security.secret === undefined
    ? [
        warning(
          ['security'],
          'no security.secret: a random one will be generated and stored in the database (set security.secret: ${IDP_SECRET} to keep sessions valid if the database is replaced)',
        ),
      ]
    : [];
