import { warning, type ConfigRule, type RuleProblem } from './config-rule.js';

/**
 * Settings that silently do nothing, and features that need e-mail while
 * email.enabled is false (their routes answer 503 EMAIL_DISABLED), are
 * worth a warning.
 */
export const checkRegistration: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  const { registration, email } = config;
  if (!registration.enabled && registration.allowed_email_patterns.length > 0) {
    problems.push(
      warning(['registration', 'allowed_email_patterns'], 'has no effect while registration.enabled is false'),
    );
  }
  if (registration.enabled && !email.enabled) {
    problems.push(
      registration.email_verification_required
        ? warning(
            ['registration', 'email_verification_required'],
            'verification e-mails cannot be sent while email.enabled is false: registration answers 503 EMAIL_DISABLED',
          )
        : warning(
            ['registration', 'enabled'],
            'self-registered users cannot reset a forgotten password while email.enabled is false (password reset needs e-mail)',
          ),
    );
  }
  if (email.enabled && email.smtp.user !== null && email.smtp.password === null) {
    problems.push(
      warning(
        ['email', 'smtp', 'user'],
        'is set without email.smtp.password: every mail fails (an SMTP login needs both)',
      ),
    );
  }
  return problems;
};
