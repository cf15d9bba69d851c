import { html } from '../html.js';
import type { PageContext } from '../page-context.js';
import { renderPage } from '../render-page.js';
import { consoleErrorSentence } from './console-layout.js';

/**
 * /setup?token=…: the first admin's form (docs/cli-admin.md, "The first
 * admin"), e-mail and password, posted with the token to /setup without a
 * script. Its referrer policy is same-origin, so the post carries its
 * Origin (the Origin rule refuses `null`).
 */
export function renderSetupPage(
  context: PageContext,
  page: { token: string; email?: string; errorCode?: string | null },
): string {
  const t = context.text.admin.setup;
  const common = context.text.pages.common;
  const min = context.config.auth.passwordMinLength;
  const body = html`    <h1>${t.heading}</h1>
    <p class="intro">${t.intro}</p>${
      page.errorCode &&
      html`
    <p class="summary" role="alert" data-code="${page.errorCode}">${consoleErrorSentence(context, page.errorCode)}</p>`
    }
    <form class="form" method="post" action="/setup">
      <input type="hidden" name="token" value="${page.token}">
      <div class="field">
        <label for="setup-email">${common.email}</label>
        <input id="setup-email" name="email" type="email" required maxlength="320" autocomplete="username" value="${page.email ?? ''}">
      </div>
      <div class="field">
        <label for="setup-password">${common.newPassword}</label>
        <input id="setup-password" name="password" type="password" required minlength="${min}" maxlength="256" autocomplete="new-password" aria-describedby="setup-password-hint">
        <p class="hint" id="setup-password-hint">${common.passwordHint.replace('{min}', String(min))}</p>
      </div>
      <button type="submit" class="primary">${t.create}</button>
    </form>`;
  return renderPage(context, {
    task: t.task,
    body,
    head: html`
  <meta name="referrer" content="same-origin">`,
  });
}

/** /setup with a link that cannot be used (404): the reason, and where a new link comes from. */
export function renderSetupUnavailablePage(context: PageContext): string {
  const t = context.text.admin.setup;
  const body = html`    <h1>${t.unavailableTitle}</h1>
    <p role="alert" data-code="SETUP_NOT_AVAILABLE">${t.unavailable}</p>
    <div class="stack"><a class="button secondary" href="/login">${context.text.pages.common.signIn}</a></div>`;
  return renderPage(context, { task: t.unavailableTitle, body });
}
