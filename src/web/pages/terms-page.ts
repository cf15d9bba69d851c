import { formatMessage } from '../../i18n/index.js';
import type { TermRecord } from '../../model/index.js';
import { checkboxField, errorSummary, submitButton } from './fields.js';
import { html, type SafeHtml } from './html.js';
import { termContent, type PageContext } from './page-context.js';
import { renderPage } from './render-page.js';
import { safeHref } from './safe-href.js';
import { sanitizeNotice } from './sanitize-notice.js';
import { errorSentence, scriptStrings } from './script-strings.js';

export interface TermsPage {
  clientName: string | null;
  /** The authorization request Continue and Decline go back to. */
  returnTo: string;
  required: TermRecord[];
  optional: TermRecord[];
  implicit: TermRecord[];
}

/**
 * /terms (the terms step, issue #14): a checkbox per required explicit term
 * not accepted at its current version (link terms open in a new tab, text
 * terms are shown as text), the optional ones the user may tick, and a
 * notice naming the implicit ones that going on accepts (the signup notice
 * of the locale, else a sentence naming them). Continue posts the ticked
 * and implicit versions to POST /api/terms/accept and goes back to
 * return_to; Decline goes back with terms_declined, which ends the
 * request with access_denied.
 */
export function renderTermsPage(context: PageContext, page: TermsPage): string {
  const t = context.text.pages.terms;
  const heading = page.clientName ? formatMessage(t.headingClient, { client: page.clientName }) : t.heading;
  const versionOf = (term: TermRecord) => ({ id: term.id, version: term.version });
  const body = html`    <h1>${heading}</h1>
    <p class="intro">${page.required.length > 0 ? t.intro : t.introUpdated}</p>
    <form id="terms-form" class="form" method="post" novalidate>${errorSummary('terms-summary', context.text.pages.common.errorSummary)}${termBoxes(context, page.required, true)}${termBoxes(context, page.optional, false)}${implicitNotice(context, page.implicit)}
      <div class="actions">
        <button type="button" id="decline" class="secondary">${t.decline}</button>
        ${submitButton(t.continue, t.working)}
      </div>
    </form>`;
  return renderPage(context, {
    task: t.task,
    body,
    script: 'terms.js',
    data: {
      ...scriptStrings(context),
      returnTo: page.returnTo,
      implicit: page.implicit.map(versionOf),
      shown: [...page.required, ...page.optional].map(versionOf),
    },
  });
}

function termBoxes(context: PageContext, terms: TermRecord[], required: boolean): SafeHtml[] {
  const t = context.text.pages.terms;
  return terms.flatMap((term) => {
    const content = termContent(term.content, context.locale, context.config.i18n.defaultLocale);
    if (!content) return [];
    const href = content.type === 'link' ? safeHref(content.content) : null;
    const title =
      href === null
        ? html`${content.title}`
        : html`<a href="${href}" target="_blank" rel="noopener noreferrer">${content.title}</a>`;
    const [before, after = ''] = (required ? t.acceptRequired : t.acceptOptional).split('{title}');
    const checkbox = checkboxField({
      id: `term-${term.id}`,
      name: 'terms',
      value: term.id,
      label: html`${before}${title}${after}`,
      required,
      requiredMessage: formatMessage(t.termRequired, { title: content.title }),
    });
    return content.type === 'text'
      ? [
          checkbox,
          html`
      <div class="term-text">${content.content}</div>`,
        ]
      : [checkbox];
  });
}

function implicitNotice(context: PageContext, terms: TermRecord[]): SafeHtml | '' {
  if (terms.length === 0) return '';
  const notices: Partial<Record<string, string>> = context.config.registration.signupNotice;
  const source =
    notices[context.locale] ?? notices[context.locale.split('-')[0]] ?? notices[context.config.i18n.defaultLocale];
  if (source)
    return html`
      <div class="notice">${sanitizeNotice(source)}</div>`;
  const titles = terms.map(
    (term) => termContent(term.content, context.locale, context.config.i18n.defaultLocale)?.title ?? term.id,
  );
  return html`
      <p class="notice">${formatMessage(context.text.pages.terms.updatedNotice, { titles: titles.join(', ') })}</p>`;
}

/** /terms without an authorization request behind it: the reason in a sentence (INVALID_RETURN_TO), the code kept. */
export function renderTermsErrorPage(context: PageContext): string {
  const t = context.text.pages.terms;
  const body = html`    <h1>${t.task}</h1>
    <p class="summary" role="alert" data-code="INVALID_RETURN_TO">${errorSentence(context, 'INVALID_RETURN_TO')}</p>`;
  return renderPage(context, { task: t.task, body });
}
