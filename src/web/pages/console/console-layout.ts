import { formatMessage } from '../../../i18n/index.js';
import { html, type SafeHtml } from '../html.js';
import { pageHref, type PageContext } from '../page-context.js';
import { renderPage } from '../render-page.js';

/** The console's sections, in the order of its navigation; `path` is where each one's page is served. */
export const consoleSections = [
  { id: 'overview', path: '/admin' },
  { id: 'users', path: '/admin/users' },
  { id: 'groups', path: '/admin/groups' },
  { id: 'clients', path: '/admin/clients' },
  { id: 'terms', path: '/admin/terms' },
  { id: 'events', path: '/admin/events' },
] as const;

export type ConsoleSection = (typeof consoleSections)[number]['id'];

/** What every console page knows of the request: the signed-in admin and the form token of their session. */
export interface ConsoleRequest {
  adminSub: string;
  adminEmail: string;
  /** The hidden `csrf` field of every form that posts (src/http/console-access.ts checks it). */
  csrf: string;
}

export interface ConsolePageParts {
  section: ConsoleSection;
  /** The title's task ("Users" → "Users · Acme"). */
  task: string;
  body: SafeHtml;
  /** A success line (role="status") above the content, after an action. */
  notice?: string | null;
  /** An error line (role="alert") above the content, when an action was refused. */
  error?: { code: string; message: string } | null;
  /** A page's own module under /ui/ and its data block (the events' follow mode); most pages have none. */
  script?: string;
  data?: unknown;
}

/**
 * The frame of every console page (docs/ui.md, "Admin console"): the pages'
 * frame (brand, footer, language, CSP) with the console's stylesheet, a
 * navigation of the sections (aria-current on this one; a column beside the
 * content from 960 px up, a wrapping row above it below), who is signed in,
 * and the outcome of the last action. No script: every action is a form
 * (posted with the page's same-origin referrer policy, so with its Origin).
 */
export function renderConsolePage(context: PageContext, request: ConsoleRequest, page: ConsolePageParts): string {
  const t = context.text.admin;
  const links = consoleSections.map(
    (section) =>
      html`<li><a href="${pageHref(context, section.path)}"${section.id === page.section ? html` aria-current="page"` : ''}>${t.nav[section.id]}</a></li>`,
  );
  const body = html`    <div class="console">
      <nav class="console-nav" aria-label="${t.nav.label}">
        <ul>${links}</ul>
      </nav>
      <div class="console-content">
        <p class="console-who"><span>${formatMessage(t.signedInAs, { email: request.adminEmail })}</span> <a href="${pageHref(context, '/account')}">${t.yourAccount}</a></p>${
          page.notice &&
          html`
        <p class="notice success" role="status">${page.notice}</p>`
        }${
          page.error &&
          html`
        <p class="summary" role="alert" data-code="${page.error.code}">${page.error.message}</p>`
        }
${page.body}
      </div>
    </div>`;
  return renderPage(context, {
    task: page.task,
    body,
    layout: 'console',
    script: page.script,
    data: page.data,
    // same-origin, not the server's no-referrer: under no-referrer a browser posts a form with `Origin: null`, which the Origin rule refuses.
    head: html`
  <meta name="referrer" content="same-origin">
  <link rel="stylesheet" href="/ui/console.css">`,
  });
}

/** An action's error code as a sentence of the console, else of the pages, else the general one. */
export function consoleErrorSentence(context: PageContext, code: string): string {
  const own: Readonly<Record<string, string>> = context.text.admin.errors;
  if (Object.hasOwn(own, code)) return own[code];
  const sentences: Readonly<Record<string, string>> = context.text.errors;
  return Object.hasOwn(sentences, code) ? sentences[code] : sentences.fallback;
}

/** The hidden field that every console form carries. */
export function csrfField(request: ConsoleRequest): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${request.csrf}">`;
}

/**
 * The 403 page: a signed-in person who is not an admin, or (with `code`) a
 * form that did not carry this session's token.
 */
export function renderConsoleForbiddenPage(context: PageContext, email: string, code?: string): string {
  const t = context.text.admin.forbidden;
  const message = code
    ? consoleErrorSentence(context, code)
    : formatMessage(t.message, { email, brand: context.config.branding.name });
  const body = html`    <h1>${t.heading}</h1>
    <p role="alert"${code ? html` data-code="${code}"` : ''}>${message}</p>
    <div class="stack">
      <a class="button secondary" href="${pageHref(context, '/account')}">${context.text.admin.yourAccount}</a>
    </div>`;
  return renderPage(context, { task: t.task, body });
}

/** A moment as the console shows it: date and time in the page's language, in UTC (the event log's zone). */
export function formatMoment(context: PageContext, time: number | string): string {
  const formatted = new Intl.DateTimeFormat(context.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(time));
  return `${formatted} UTC`;
}
