import type { Logger } from 'pino';
import type { Config } from '../config/types.js';
import { createSmtpMailer, type MailJob } from '../mail/index.js';
import type { Tx, UserRepository } from '../storage/repositories.js';
import { createAccountMail } from './account-mail.js';
import type { LinkTokens } from './link-tokens.js';

/** The handler of the scheduler's `mail.send` jobs, and the SMTP connection it holds. */
export interface MailSendJob {
  handle: (job: MailJob, context: { logger: Logger }) => Promise<void>;
  /** Closes the SMTP connection (the app's stop()). */
  close: () => void;
}

/**
 * Sends the account mails that services queue in the transaction of their
 * change (src/mail). Null when email.enabled is false: such an instance
 * leaves its mail jobs to one that sends (docs/scheduler.md).
 */
export function createMailSendJob(deps: {
  db: Tx;
  users: UserRepository;
  linkTokens: LinkTokens;
  config: Pick<Config, 'email' | 'server' | 'branding'>;
}): MailSendJob | null {
  const { config } = deps;
  if (!config.email.enabled) return null;
  const mailer = createSmtpMailer(config.email);
  const accountMail = createAccountMail({
    db: deps.db,
    users: deps.users,
    linkTokens: deps.linkTokens,
    mailer,
    baseUrl: config.server.baseUrl,
    branding: config.branding,
  });
  return {
    async handle(job, { logger }) {
      const outcome = await accountMail.deliver(job);
      logger.info(
        { event: `mail.${outcome}`, template: job.template, locale: job.locale },
        `${job.template} mail ${outcome}`,
      );
    },
    close() {
      mailer.close();
    },
  };
}
