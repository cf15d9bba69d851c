/** The mails idp sends, each with a single-use link (docs/http-api.md, "Self-service accounts"). */
export type MailTemplate = 'email_verification' | 'password_reset';

/**
 * The payload of a `mail.send` background job. It names the address a
 * request gave and the locale the request negotiated, never a secret: the
 * handler mints the link's token when it sends, so neither the job row nor
 * `idp jobs list` ever holds a usable link (docs/scheduler.md, "Mail jobs").
 */
export interface MailJob {
  template: MailTemplate;
  /** As the request gave it; the handler looks the account up by it (case-insensitively). */
  email: string;
  /** A locale of i18n.locales, negotiated from the request that queued the mail. */
  locale: string;
}
