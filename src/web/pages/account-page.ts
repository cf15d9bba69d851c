import { formatMessage } from '../../i18n/index.js';
import type { ManagedBy } from '../../model/index.js';
import { errorSummary, passwordField, newPasswordField, statusRegion, submitButton, textField } from './fields.js';
import { authenticatorAppSetup, codeField, passkeyCreation, recoveryCodesReveal } from './factor-fragments.js';
import { html, type SafeHtml } from './html.js';
import type { PageContext } from './page-context.js';
import { languageName, renderPage } from './render-page.js';
import { scriptStrings } from './script-strings.js';

/** The signed-in user, as far as the page's layout depends on it (the rest comes from GET /api/user). */
export interface AccountUser {
  email: string;
  managedBy: ManagedBy;
  hasPassword: boolean;
}

/**
 * One section of /account: its heading (also the table of contents entry),
 * whether this user sees it, and its content. Later features (authenticator
 * app, passkeys, connected providers, apps with access, terms) are rows of
 * accountSections, in docs/ui.md's order, each with its own script module.
 */
export interface AccountSection {
  id: string;
  title(context: PageContext): string;
  /** The table of contents entry, when it differs from the heading. */
  navTitle?(context: PageContext): string;
  shown(context: PageContext, user: AccountUser): boolean;
  render(context: PageContext, user: AccountUser): SafeHtml;
  variant?: 'danger';
}

/** Longest profile name field the page accepts (PATCH /api/user answers VALIDATION_ERROR beyond it). */
export const profileFieldMaxLength = 255;

const profileSection: AccountSection = {
  id: 'profile',
  title: (context) => context.text.pages.account.profile.heading,
  shown: () => true,
  render(context, user) {
    const { account } = context.text.pages;
    const t = account.profile;
    const common = context.text.pages.common;
    const locales = context.config.i18n.locales;
    // A config-managed user's profile is the file's (docs/http-api.md, "Your own account"): shown, not editable.
    const readOnly = user.managedBy === 'config';
    const localeField =
      locales.length < 2
        ? html``
        : html`
      <div class="field">
        <label for="profile-locale">${t.locale}</label>
        <select id="profile-locale" name="locale" aria-describedby="profile-locale-hint"${readOnly && html` disabled`}>
          <option value="">${t.localeAutomatic}</option>${locales.map(
            (locale) => html`
          <option value="${locale}" lang="${locale}">${languageName(locale)}</option>`,
          )}
        </select>
        <p class="hint" id="profile-locale-hint">${t.localeHint}</p>
        <p class="field-error" id="profile-locale-error" hidden></p>
      </div>`;
    const nameField = (id: string, label: string, autocomplete: string) =>
      textField({ id: `profile-${id}`, name: id, label, autocomplete, maxLength: profileFieldMaxLength, readOnly });
    return html`
      <p class="intro">${t.intro}</p>${
        readOnly &&
        html`
      <p class="note">${t.managed}</p>`
      }
      <form id="profile-form" class="form" method="post" novalidate aria-busy="true"${readOnly && html` data-read-only`}>${errorSummary('profile-summary', common.errorSummary)}${statusRegion('profile-status')}${textField({ id: 'profile-email', name: 'email', label: common.email, type: 'email', value: user.email, readOnly: true })}${nameField('name', t.name, 'name')}${nameField('given_name', t.givenName, 'given-name')}${nameField('family_name', t.familyName, 'family-name')}${localeField}${!readOnly && submitButton(account.save, account.saving)}
      </form>`;
  },
};

const passwordSection: AccountSection = {
  id: 'password',
  title: (context) => context.text.pages.account.password.heading,
  shown: () => true,
  render(context, user) {
    const t = context.text.pages.account.password;
    const common = context.text.pages.common;
    if (user.managedBy === 'config')
      return html`
      <p class="note">${t.managed}</p>`;
    return html`
      <p class="intro">${user.hasPassword ? t.intro : t.setIntro}</p>
      <form id="password-form" class="form" method="post" novalidate>${errorSummary('password-summary', common.errorSummary)}${statusRegion('password-status')}
        <input type="text" name="username" autocomplete="username" value="${user.email}" hidden>${user.hasPassword && passwordField(context, { id: 'current-password', label: common.currentPassword, autocomplete: 'current-password', required: true, maxLength: 1024 })}${newPasswordField(context, { id: 'new-password', label: common.newPassword })}${submitButton(user.hasPassword ? t.submit : t.setSubmit, t.submitting)}
      </form>`;
  },
};

/**
 * A confirmation that asks for a current code of the authenticator app
 * (removing the app, replacing the recovery codes): a button that opens a
 * small form, as the danger zone does.
 */
function codeConfirmation(
  context: PageContext,
  options: {
    id: string;
    start: string;
    heading: string;
    hint: string;
    confirm: string;
    busy: string;
    danger?: boolean;
  },
): SafeHtml {
  const f = context.text.pages.factors;
  const { id } = options;
  return html`
      <div id="${id}-box" hidden>
        <button type="button" id="${id}-start" class="${options.danger ? 'danger-outline' : 'secondary'}" aria-expanded="false" aria-controls="${id}-form">${options.start}</button>
        <form id="${id}-form" class="form confirm" method="post" novalidate hidden>
          <h3>${options.heading}</h3>${errorSummary(`${id}-summary`, context.text.pages.common.errorSummary)}${codeField({ id: `${id}-code`, label: f.confirmLabel, hint: options.hint })}
          <div class="actions">
            <button type="button" id="${id}-cancel" class="secondary">${f.cancel}</button>${submitButton(options.confirm, options.busy, options.danger ? 'danger' : 'primary')}
          </div>
        </form>
      </div>`;
}

/** The authenticator app (docs/http-api.md, "Second factors"): set up with a QR code drawn by this server, or removed after a code. /ui/account-factors.js. */
const authenticatorAppSection: AccountSection = {
  id: 'authenticator-app',
  title: (context) => context.text.pages.factors.appHeading,
  shown: () => true,
  render(context) {
    const f = context.text.pages.factors;
    const a = f.account;
    return html`
      <p class="intro">${f.appIntro}</p>
      <p id="app-state" class="factor-state" data-on="${a.appOn}" data-off="${a.appOff}"></p>${statusRegion('app-status')}${authenticatorAppSetup(context)}${codeConfirmation(context, { id: 'app-remove', start: a.appRemove, heading: a.appRemoveHeading, hint: a.appRemoveHint, confirm: a.appRemoveConfirm, busy: a.appRemoving, danger: true })}`;
  },
};

/** The recovery codes: how many are left, new ones after a code, and the codes shown once (after either). */
const recoveryCodesSection: AccountSection = {
  id: 'recovery-codes',
  title: (context) => context.text.pages.factors.account.codesHeading,
  shown: () => true,
  render(context) {
    const a = context.text.pages.factors.account;
    return html`
      <p id="codes-state" class="factor-state" data-left="${a.codesLeft}" data-none-left="${a.codesNoneLeft}" data-no-app="${a.codesNoApp}"></p>${codeConfirmation(context, { id: 'codes-new', start: a.codesNew, heading: a.codesNewHeading, hint: a.codesNewHint, confirm: a.codesNewConfirm, busy: a.codesCreating })}${recoveryCodesReveal(context)}`;
  },
};

/** Passkeys (with auth.passkeys_enabled): each with its name, when it was created and last used; rename, remove, add. */
const passkeysSection: AccountSection = {
  id: 'passkeys',
  title: (context) => context.text.pages.factors.account.passkeysHeading,
  shown: (context) => context.config.auth.passkeysEnabled,
  render(context) {
    const f = context.text.pages.factors;
    return html`
      <p class="intro">${f.passkeyIntro}</p>
      <div class="summary" id="passkeys-summary" role="alert" aria-live="assertive" tabindex="-1"></div>${statusRegion('passkeys-status')}
      <p id="passkeys-none" class="factor-state" hidden>${f.account.passkeysNone}</p>
      <ul id="passkey-list" class="passkey-list"></ul>
      <h3>${f.account.passkeyAdd}</h3>${passkeyCreation(context, f.account.passkeyAdd)}`;
  },
};

/**
 * Connected providers (docs/ui.md, "Which pages"; docs/http-api.md, "Upstream identity providers"): shown while the
 * config has upstream providers. /ui/account-connections.js lists the
 * connections (GET /api/connections) with Disconnect, and a Connect link
 * per usable provider not connected yet (the authorize route with
 * intent=link, back to this section).
 */
const connectionsSection: AccountSection = {
  id: 'connections',
  title: (context) => context.text.pages.account.connections.heading,
  shown: (context) => context.config.identityProviders.length > 0,
  render(context) {
    const t = context.text.pages.account.connections;
    const common = context.text.pages.common;
    return html`
      <p class="intro">${t.intro}</p>
      <div id="connections-body" aria-busy="true">${errorSummary('connections-summary', common.errorSummary)}${statusRegion('connections-status')}
        <ul id="connection-list" class="item-list"></ul>
        <p id="connections-none" class="note" hidden>${t.none}</p>
        <ul id="connect-list" class="providers"></ul>
      </div>`;
  },
};

/** The applications the user let in (GET /api/consents), each with Revoke (DELETE /api/consents/{client_id}); filled by the script. */
const appsSection: AccountSection = {
  id: 'apps',
  title: (context) => context.text.pages.account.apps.heading,
  shown: () => true,
  render(context) {
    const t = context.text.pages.account.apps;
    return html`
      <p class="intro">${t.intro}</p>${statusRegion('apps-status')}
      <ul id="apps-list" class="item-list" aria-busy="true"></ul>
      <p id="apps-empty" class="note" hidden>${t.empty}</p>`;
  },
};

/**
 * The groups the user is in, read-only (GET /api/user/groups): each group
 * once with where its memberships come from; filled by
 * /ui/account-groups.js. Shown while the config has groups (every group is
 * the file's).
 */
const groupsSection: AccountSection = {
  id: 'groups',
  title: (context) => context.text.pages.account.groups.heading,
  shown: (context) => context.config.groups.length > 0,
  render(context) {
    const t = context.text.pages.account.groups;
    return html`
      <p class="intro">${t.intro}</p>${statusRegion('groups-status')}
      <ul id="groups-list" class="item-list" aria-busy="true"></ul>
      <p id="groups-none" class="note" hidden>${t.none}</p>`;
  },
};

/** Which version of each term the user accepted, and when (GET /api/terms); shown only when the config has terms. */
const termsSection: AccountSection = {
  id: 'terms',
  title: (context) => context.text.pages.account.terms.heading,
  shown: (context) => context.config.terms.length > 0,
  render() {
    return html`
      <ul id="terms-list" class="item-list" aria-busy="true"></ul>`;
  },
};

/** Hidden where deletion is refused anyway (docs/http-api.md, "Your own account": account_deletion.enabled false, or a config-managed user). */
const dangerSection: AccountSection = {
  id: 'delete-account',
  title: (context) => context.text.pages.account.danger.heading,
  navTitle: (context) => context.text.pages.account.danger.navLabel,
  shown: (context, user) => context.config.accountDeletion.enabled && user.managedBy === 'database',
  variant: 'danger',
  render(context, user) {
    const t = context.text.pages.account.danger;
    const common = context.text.pages.common;
    return html`
      <h3>${t.title}</h3>
      <p>${formatMessage(t.intro, { days: context.config.accountDeletion.gracePeriodDays })}</p>
      <button type="button" id="delete-start" class="danger-outline" aria-expanded="false" aria-controls="delete-form">${t.start}</button>
      <form id="delete-form" class="form confirm" method="post" novalidate hidden>
        <h4>${t.confirmHeading}</h4>${errorSummary('delete-summary', common.errorSummary)}${
          user.hasPassword
            ? html`
        <input type="text" name="username" autocomplete="username" value="${user.email}" hidden>${passwordField(context, { id: 'delete-password', label: common.password, autocomplete: 'current-password', required: true, maxLength: 1024, hint: t.confirmPassword })}`
            : html`
        <p>${t.confirmRecent}</p>`
        }
        <div class="actions">
          <button type="button" id="delete-cancel" class="secondary">${t.cancel}</button>${submitButton(t.confirm, t.deleting, 'danger')}
        </div>
      </form>`;
  },
};

export const accountSections: readonly AccountSection[] = [
  profileSection,
  passwordSection,
  authenticatorAppSection,
  recoveryCodesSection,
  passkeysSection,
  connectionsSection,
  appsSection,
  groupsSection,
  termsSection,
  dangerSection,
];

/**
 * /account (docs/ui.md, "Which pages"): who is signed in and a way out, then one
 * section per row of accountSections, with a table of contents beside them
 * from 960 px up. /ui/account.js fills the profile from GET /api/user and
 * sends each form to its route (docs/http-api.md).
 */
export function renderAccountPage(context: PageContext, user: AccountUser): string {
  const t = context.text.pages.account;
  const sections = accountSections.filter((section) => section.shown(context, user));
  const body = html`    <div class="account-layout">
      <nav class="toc" aria-labelledby="toc-title">
        <h2 id="toc-title" class="toc-title">${t.contents}</h2>
        <ul>${sections.map(
          (section) => html`
          <li><a href="#${section.id}">${section.navTitle?.(context) ?? section.title(context)}</a></li>`,
        )}
        </ul>
      </nav>
      <div class="account-sections" id="account-sections">
        <div class="account-header">
          <div>
            <h1>${t.heading}</h1>
            <p class="account-email">${formatMessage(t.signedInAs, { email: user.email })}</p>
          </div>
          <button type="button" id="sign-out" class="secondary" data-busy-label="${t.signingOut}">${t.signOut}</button>
        </div>${sections.map(
          (section) => html`
        <section id="${section.id}" class="panel${section.variant ? ` panel-${section.variant}` : ''}" aria-labelledby="${section.id}-title">
          <h2 id="${section.id}-title">${section.title(context)}</h2>${section.render(context, user)}
        </section>`,
        )}
      </div>
      <div id="account-deleted" class="card" hidden>
        <h1 tabindex="-1">${t.danger.deletedHeading}</h1>
        <p>${t.danger.deletedMessage}</p>
        <a class="button primary" href="/">${context.text.pages.common.goHome}</a>
      </div>
    </div>`;
  return renderPage(context, {
    task: t.task,
    body,
    layout: 'wide',
    script: 'account.js',
    data: {
      ...scriptStrings(context),
      account: t,
      factors: context.text.pages.factors,
      brand: context.config.branding.name,
      email: user.email,
    },
  });
}
