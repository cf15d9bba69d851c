import type { BrandingConfig } from '../config/types.js';
import { composeMail, type Mailer, type MailJob, type MailTemplate } from '../mail/index.js';
import type { Tx, UserRepository } from '../storage/repositories.js';
import type { UserRecord } from '../model/index.js';
import { linkTokenLifetimeHours, type LinkTokens } from './link-tokens.js';

/** Where each mail's link leads: the page that POSTs the token to the API. */
const linkPaths: Readonly<Record<MailTemplate, string>> = {
  email_verification: '/verify-email',
  password_reset: '/reset-password',
};

/**
 * Who may receive which mail, decided when the mail is sent rather than
 * when it was asked for, so that a request answers the same for every
 * address (no enumeration) and a mail never goes out for an account that
 * changed meanwhile. Only database-managed users: a config user's e-mail
 * state and password come from git (docs/http-api.md, "Self-service accounts"), so neither a
 * verification nor a reset link could change them.
 */
const eligible: Readonly<Record<MailTemplate, (user: UserRecord) => boolean>> = {
  email_verification: (user) => user.managedBy === 'database' && !user.emailVerified,
  password_reset: (user) => user.managedBy === 'database',
};

export type MailOutcome = 'sent' | 'skipped';

/**
 * The handler of `mail.send` jobs for account mails: find the live account
 * of the job's address → is it eligible? → mint the link's token → compose
 * the mail in the job's locale → send it. A send that fails throws, and the
 * scheduler retries it (a later attempt mints a fresh token; the unsent
 * one is never seen by anyone and expires).
 */
export interface AccountMail {
  deliver(job: MailJob): Promise<MailOutcome>;
}

export function createAccountMail(deps: {
  db: Tx;
  users: UserRepository;
  linkTokens: LinkTokens;
  mailer: Mailer;
  baseUrl: string;
  branding: BrandingConfig;
}): AccountMail {
  const base = deps.baseUrl.replace(/\/+$/, '');
  return {
    async deliver(job) {
      const user = await deps.users.findLiveByEmail(deps.db, job.email);
      if (!user || !eligible[job.template](user)) return 'skipped';
      const token = await deps.linkTokens.issue(deps.db, user, job.template);
      const composed = composeMail({
        template: job.template,
        locale: job.locale,
        recipient: user.email,
        link: `${base}${linkPaths[job.template]}?token=${token}`,
        validForHours: linkTokenLifetimeHours[job.template],
        branding: deps.branding,
      });
      await deps.mailer.send({ to: user.email, locale: job.locale, ...composed });
      return 'sent';
    },
  };
}
