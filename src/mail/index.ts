/**
 * E-mail delivery (docs/configuration.md, "email"). A capability that mails someone queues a
 * MailJob through a MailOutbox inside the transaction of the change that
 * causes the mail; the scheduler's worker runs the job (retries, attempt
 * limit, once across instances); its handler (src/accounts/account-mail.ts
 * for the account mails) decides who gets what, composeMail writes the
 * message in the recipient's locale with the configured branding, as text
 * and HTML, and the SMTP mailer sends it through nodemailer
 * (`email.smtp`, `email.from`). docs/scheduler.md says what a mail job keeps.
 */
export type { MailJob, MailTemplate } from './mail-job.js';
export type { MailOutbox } from './mail-outbox.js';
export { composeMail, type ComposedMail, type MailContent } from './compose-mail.js';
export { createSmtpMailer, type Mailer, type OutgoingMail } from './smtp-mailer.js';
export { escapeHtml } from './escape-html.js';
