import type { BrandingConfig } from '../config/types.js';
import { catalogueFor, formatMessage } from '../i18n/index.js';
import { escapeHtml } from './escape-html.js';
import type { MailTemplate } from './mail-job.js';
import { mailBranding } from './mail-branding.js';

/** What a mail says, before it is written in a language. */
export interface MailContent {
  template: MailTemplate;
  locale: string;
  /** The recipient's address, as the mail names it. */
  recipient: string;
  /** The single-use link the mail exists for. */
  link: string;
  /** How long the link works. */
  validForHours: number;
  branding: BrandingConfig;
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

const catalogueKeys = { email_verification: 'emailVerification', password_reset: 'passwordReset' } as const;

/**
 * The mail in the locale's words (src/i18n, catalogues/<locale>/mail.ts) and
 * the configured branding, as plain text and as HTML. Every value is escaped
 * where it enters the HTML, after it has been put into its sentence.
 */
export function composeMail(content: MailContent): ComposedMail {
  const catalogue = catalogueFor(content.locale).mail;
  const words = catalogue[catalogueKeys[content.template]];
  const brand = mailBranding(content.branding);
  const duration = new Intl.NumberFormat(intlLocale(content.locale), {
    style: 'unit',
    unit: 'hour',
    unitDisplay: 'long',
  }).format(content.validForHours);
  const values = { brand: brand.name, email: content.recipient, duration };
  const say = (template: string) => formatMessage(template, values);
  const subject = say(words.subject);
  const paragraphs = [catalogue.greeting, say(words.intro)];
  const after = [say(words.expiry), say(words.notYou)];
  const signature = say(catalogue.signature);

  const text = [...paragraphs, `${say(words.action)}:\n${content.link}`, ...after, signature].join('\n\n') + '\n';

  const link = escapeHtml(content.link);
  const paragraph = (line: string) => `<p style="margin:0 0 16px;">${escapeHtml(line)}</p>`;
  const button =
    `<p style="margin:24px 0;"><a href="${link}" style="display:inline-block;padding:12px 20px;border-radius:6px;` +
    `background:${brand.accent};color:${brand.accentText};font-weight:600;text-decoration:none;">${escapeHtml(say(words.action))}</a></p>`;
  const fallback =
    `<p style="margin:0 0 16px;font-size:13px;color:#57606a;">${escapeHtml(catalogue.linkFallback)}<br>` +
    `<a href="${link}" style="color:${brand.accent};word-break:break-all;">${link}</a></p>`;
  const html = [
    '<!doctype html>',
    `<html lang="${escapeHtml(content.locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:0;background:#f6f8fa;">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f6f8fa;padding:24px 12px;"><tr><td align="center">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;border:1px solid #d0d7de;">',
    `<tr><td style="padding:24px 32px 0;">${brand.headerHtml}</td></tr>`,
    `<tr><td style="padding:24px 32px 32px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#1f2328;">`,
    ...paragraphs.map(paragraph),
    button,
    ...after.map(paragraph),
    fallback,
    `<p style="margin:0;">${escapeHtml(signature)}</p>`,
    '</td></tr></table>',
    '</td></tr></table></body></html>',
  ].join('\n');

  return { subject, text, html };
}

/** i18n.locales are not checked as BCP 47 tags, and Intl throws on a malformed one: such a locale counts its hours in English. */
function intlLocale(locale: string): string {
  try {
    return new Intl.Locale(locale).toString();
  } catch {
    return 'en';
  }
}
