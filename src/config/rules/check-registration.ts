import { warning, type ConfigRule, type RuleProblem } from './config-rule.js';

/** Settings that silently do nothing are worth a warning. */
export const checkRegistration: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  const { registration, email } = config;
  if (!registration.enabled && registration.allowed_email_patterns.length > 0) {
    problems.push(warning(['registration', 'allowed_email_patterns'], 'has no effect while registration.enabled is false'));
  }
  if (registration.enabled && registration.email_verification_required && !email.enabled) {
    problems.push(warning(['registration', 'email_verification_required'], 'verification e-mails cannot be sent while email.enabled is false'));
  }
  return problems;
};
