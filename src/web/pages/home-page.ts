import { formatMessage } from '../../i18n/index.js';
import { html } from './html.js';
import { pageHref, type PageContext } from './page-context.js';
import { renderPage } from './render-page.js';
import { scriptStrings } from './script-strings.js';

/** `/`: who is signed in here, with the way to the account or out; else the ways in. */
export function renderHomePage(context: PageContext, page: { email: string | null }): string {
  const t = context.text.pages.home;
  const heading = formatMessage(t.heading, { brand: context.config.branding.name });
  const body =
    page.email === null
      ? html`    <h1>${heading}</h1>
    <p>${t.notSignedIn}</p>
    <div class="stack">
      <a class="button primary" href="${pageHref(context, '/login')}">${t.signIn}</a>${
        context.config.registration.enabled &&
        html`
      <a class="button secondary" href="${pageHref(context, '/register')}">${t.createAccount}</a>`
      }
    </div>`
      : html`    <h1>${heading}</h1>
    <p>${formatMessage(t.signedInAs, { email: page.email })}</p>
    <div class="summary" id="home-summary" role="alert" aria-live="assertive" tabindex="-1"></div>
    <div class="stack">
      <a class="button primary" href="${pageHref(context, '/account')}">${t.manageAccount}</a>
      <button type="button" id="sign-out" class="secondary" data-busy-label="${t.signingOut}">${t.signOut}</button>
    </div>`;
  return renderPage(context, {
    task: t.task,
    body,
    script: page.email === null ? undefined : 'home.js',
    data: scriptStrings(context),
  });
}
