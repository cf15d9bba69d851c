import { error, warning, type ConfigRule, type RuleProblem } from './config-rule.js';

/** PostgreSQL needs a connection string; several instances need the database scheduler's shared leases, not SQLite. */
export const checkDatabase: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  if (config.database.client === 'postgres' && config.database.url === undefined) {
    problems.push(error(['database'], 'missing required key "url" (required when client is postgres)'));
  }
  if (config.database.client === 'sqlite' && config.database.url !== undefined) {
    problems.push(warning(['database', 'url'], 'is ignored when client is sqlite (set client: postgres to use it)'));
  }
  if (config.database.pool.min > config.database.pool.max) {
    problems.push(
      error(['database', 'pool', 'min'], `must not be greater than pool.max (${config.database.pool.max})`),
    );
  }
  return problems;
};
