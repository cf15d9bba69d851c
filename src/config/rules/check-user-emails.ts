import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

// One @, a local part and a domain with a dot-separated label structure; the
// dot rules (docs/http-api.md, "Admin API") get their own messages below.
const emailShape = /^[^\s@]+@[^\s@]+$/;
const domainShape = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/** docs/http-api.md, "Admin API": e-mail format; no leading dot, no consecutive dots. */
export function describeEmail(email: string): string | null {
  if (!emailShape.test(email)) return 'must be an e-mail address (name@example.com)';
  if (email.startsWith('.')) return 'must not start with a dot';
  if (email.includes('..')) return 'must not contain consecutive dots';
  const at = email.lastIndexOf('@');
  if (email[at - 1] === '.') return 'must not have a dot just before the @';
  if (!domainShape.test(email.slice(at + 1))) return 'must have a valid domain after the @';
  return null;
}

export const checkUserEmails: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  config.users.forEach((user, index) => {
    const message = typeof user.email === 'string' ? describeEmail(user.email) : null;
    if (message) problems.push(error(['users', index, 'email'], message));
  });
  return problems;
};
