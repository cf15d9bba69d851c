import { formatMessage } from '../../i18n/index.js';
import { html } from './html.js';
import { pageHref, type PageContext } from './page-context.js';
import { renderPage } from './render-page.js';
import { errorSentence, scriptStrings } from './script-strings.js';

export interface ConsentPage {
  clientName: string;
  /**
   * The registered redirect URI the answer goes to: the user is told its
   * host. Null for a device's request (RFC 8628): the user is warned instead.
   */
  redirectUri: string | null;
  scopes: readonly string[];
  /** With the groups scope, the names of the user's groups the application will see ([] for none); null without it. */
  groups: readonly string[] | null;
  /** The requested scopes the user allowed before: a consent asked again lists only what is new, and names the rest. */
  alreadyGranted?: readonly string[];
  email: string;
  /** The authorization request (the return_to Allow and Deny post back). */
  returnTo: string;
}

/**
 * /consent (docs/ui.md, "Which pages"): the application's name, where the browser
 * will return (for a device's request, the warning to go on only for one's own device), the requested scopes as sentences (the groups scope with the
 * names of the user's groups), who is signed in with a way to switch
 * account, Allow and Deny. /ui/consent.js posts the decision
 * to POST /api/consent and follows its redirect_to.
 */
export function renderConsentPage(context: PageContext, page: ConsentPage): string {
  const t = context.text.pages.consent;
  const descriptions: Readonly<Record<string, string>> = t.scopes;
  const sentenceOf = (scope: string) =>
    Object.hasOwn(descriptions, scope) ? descriptions[scope] : formatMessage(t.otherScope, { scope });
  const before = new Set(page.alreadyGranted ?? []);
  const asked = page.scopes.filter((scope) => !before.has(scope));
  // Asked again for nothing new (prompt=consent): the whole list, as the first time.
  const again = before.size > 0 && asked.length > 0;
  const scopes = (again ? asked : page.scopes).map((scope) => {
    const sentence = sentenceOf(scope);
    if (scope !== 'groups' || page.groups === null) return sentence;
    const detail =
      page.groups.length === 0 ? t.groupsNone : formatMessage(t.groupsList, { groups: page.groups.join(', ') });
    return html`<span class="scope-text">${sentence}<span class="scope-detail" id="consent-groups">${detail}</span></span>`;
  });
  const switchAccount = pageHref(context, '/login', { return_to: page.returnTo, select_account: 'true' });
  const body = html`    <h1>${formatMessage(t.heading, { client: page.clientName })}</h1>
    <p class="intro">${formatMessage(again ? t.asksToMore : t.asksTo, { client: page.clientName })}</p>
    <ul class="scopes">${scopes.map(
      (sentence) => html`
      <li>${sentence}</li>`,
    )}
    </ul>${
      again &&
      html`
    <p class="hint" id="consent-before">${formatMessage(t.alreadyAllowed, {
      scopes: page.scopes
        .filter((scope) => before.has(scope))
        .map(sentenceOf)
        .join('; '),
    })}</p>`
    }
    ${
      page.redirectUri === null
        ? html`<p class="warning" id="device-warning">${t.deviceWarning}</p>`
        : html`<p class="return-host">${formatMessage(t.returnTo, { host: hostOf(page.redirectUri) })}</p>`
    }
    <p class="account">${formatMessage(t.signedInAs, { email: page.email })} — <a href="${switchAccount}">${t.notYou}</a></p>
    <div class="summary" id="consent-summary" role="alert" aria-live="assertive" tabindex="-1"></div>
    <div class="actions">
      <button type="button" id="deny" class="secondary" data-busy-label="${t.working}">${t.deny}</button>
      <button type="button" id="allow" class="primary" data-busy-label="${t.working}">${t.allow}</button>
    </div>`;
  return renderPage(context, {
    task: t.task,
    body,
    script: 'consent.js',
    data: { ...scriptStrings(context), returnTo: page.returnTo },
  });
}

/** /consent without a valid authorization request behind it. */
export function renderConsentErrorPage(context: PageContext, code: string): string {
  const t = context.text.pages.consent;
  const body = html`    <h1>${t.task}</h1>
    <p class="summary" role="alert" data-code="${code}">${errorSentence(context, code)}</p>`;
  return renderPage(context, { task: t.task, body });
}

/** A custom-scheme redirect URI (a native app) has no host: its scheme names the app. */
function hostOf(uri: string): string {
  const url = new URL(uri);
  return url.host || url.protocol.replace(/:$/, '');
}
