// @ts-check
import { byId, callApi, format, pageData } from './api.js';
import { clearProblems, enhanceForm, errorMessage, setBusy, showProblems } from './form.js';
// The second-factor sections (authenticator app, recovery codes, passkeys) set themselves up.
import './account-factors.js';
import './account-connections.js';
import './account-groups.js';

/**
 * /account (src/web/pages/account-page.ts): the profile from GET /api/user
 * saved with PATCH /api/user, the password with POST /api/user/password,
 * and the account deleted with DELETE /api/user after a confirmation; the
 * second factors in ./account-factors.js. Each section's form only exists
 * when the page rendered it.
 */
const data = pageData();

/** @param {string} id */
const optional = (id) => document.getElementById(id);

/** A session that ended meanwhile: sign in again and come back. */
function toSignIn() {
  location.assign(`/login?${new URLSearchParams({ return_to: '/account' })}`);
}

/**
 * One outcome at a time: the next action in one section clears what the
 * sections said before ("saved", an error), so that no old message reads
 * as the answer to the new one. An action is a form sent, or a button that
 * acts outside a form (Revoke, Remove, Disconnect).
 * @param {Event} event
 */
function clearOtherSections(event) {
  const target = /** @type {Element} */ (event.target);
  if (event.type === 'click' && (target.closest('button') === null || target.closest('form') !== null)) return;
  const acting = target.closest('section');
  for (const section of document.querySelectorAll('#account-sections > section')) {
    if (section === acting) continue;
    for (const notice of section.querySelectorAll('.notice')) notice.textContent = '';
    for (const summary of section.querySelectorAll('.summary'))
      clearProblems(
        /** @type {HTMLElement} */ (summary.closest('form') ?? section),
        /** @type {HTMLElement} */ (summary),
      );
  }
}
document.addEventListener('submit', clearOtherSections, true);
document.addEventListener('click', clearOtherSections, true);

const signOut = /** @type {HTMLButtonElement} */ (byId('sign-out'));
signOut.addEventListener('click', async () => {
  setBusy(signOut, true);
  await callApi('POST', '/api/auth/logout');
  location.assign('/login');
});

const profileForm = /** @type {HTMLFormElement | null} */ (optional('profile-form'));
if (profileForm) void setUpProfile(profileForm);

/** @param {HTMLFormElement} form */
async function setUpProfile(form) {
  const summary = byId('profile-summary');
  const status = byId('profile-status');
  const fields = ['name', 'given_name', 'family_name', 'locale'].flatMap((name) => {
    const field = form.elements.namedItem(name);
    return field instanceof HTMLInputElement || field instanceof HTMLSelectElement ? [field] : [];
  });
  const loaded = await callApi('GET', '/api/user');
  form.setAttribute('aria-busy', 'false');
  if (!loaded.ok) {
    if (loaded.status === 401) return toSignIn();
    showProblems(form, summary, [{ message: data.account.loadFailed, code: loaded.code }], { focus: false });
    return;
  }
  const user = loaded.body?.user ?? {};
  for (const field of fields) field.value = typeof user[field.name] === 'string' ? user[field.name] : '';
  if (form.dataset.readOnly !== undefined) return;
  const localeBefore = user.locale ?? null;
  enhanceForm(form, {
    send() {
      status.textContent = '';
      /** @type {Record<string, string | null>} */
      const changes = {};
      for (const field of fields) changes[field.name] = field.value.trim() === '' ? null : field.value.trim();
      return callApi('PATCH', '/api/user', changes);
    },
    onSuccess(result) {
      // A new language shows at once: the page is rendered in the profile's locale.
      if ((result.body?.user?.locale ?? null) !== localeBefore) {
        location.reload();
        return true;
      }
      status.textContent = data.account.saved;
    },
    onFailure(result) {
      if (result.code === 'UNAUTHORIZED') toSignIn();
    },
  });
}

const passwordForm = /** @type {HTMLFormElement | null} */ (optional('password-form'));
if (passwordForm) {
  const current = /** @type {HTMLInputElement | null} */ (optional('current-password'));
  const next = /** @type {HTMLInputElement} */ (byId('new-password'));
  const status = byId('password-status');
  enhanceForm(passwordForm, {
    send() {
      status.textContent = '';
      return callApi('POST', '/api/user/password', {
        ...(current ? { current_password: current.value } : {}),
        new_password: next.value,
      });
    },
    onSuccess() {
      if (current) current.value = '';
      next.value = '';
      status.textContent = data.account.password.changed;
    },
    onFailure(result) {
      if (result.code === 'UNAUTHORIZED') toSignIn();
      // The API's sentence speaks of a sign-in ("email or password"); here only the current password was asked.
      if (result.code === 'INVALID_CREDENTIALS')
        return [{ message: data.account.password.wrongCurrent, code: result.code, field: current }];
    },
    fieldFor: { PASSWORD_TOO_SHORT: next },
  });
}

const deleteForm = /** @type {HTMLFormElement | null} */ (optional('delete-form'));
if (deleteForm) {
  const start = /** @type {HTMLButtonElement} */ (byId('delete-start'));
  const password = /** @type {HTMLInputElement | null} */ (optional('delete-password'));
  /** @param {boolean} open */
  const toggle = (open) => {
    deleteForm.hidden = !open;
    start.hidden = open;
    start.setAttribute('aria-expanded', String(open));
    if (open) (password ?? /** @type {HTMLElement} */ (deleteForm.querySelector('button[type="submit"]'))).focus();
    else start.focus();
  };
  start.addEventListener('click', () => toggle(true));
  byId('delete-cancel').addEventListener('click', () => toggle(false));
  enhanceForm(deleteForm, {
    send: () => callApi('DELETE', '/api/user', password ? { password: password.value } : {}),
    onSuccess() {
      byId('account-sections').hidden = true;
      document.querySelector('nav.toc')?.setAttribute('hidden', '');
      byId('account-deleted').hidden = false;
      /** @type {HTMLElement} */ (byId('account-deleted').querySelector('h1')).focus();
    },
    onFailure(result) {
      if (result.code === 'UNAUTHORIZED') toSignIn();
      if (result.code === 'INVALID_CREDENTIALS')
        return [{ message: data.account.danger.wrongPassword, code: result.code, field: password }];
    },
  });
}

/** @param {string} iso */
const dateOf = (iso) => new Date(iso).toLocaleDateString(document.documentElement.lang, { dateStyle: 'long' });

const appsList = /** @type {HTMLUListElement | null} */ (optional('apps-list'));
if (appsList) void setUpApps(appsList);

/**
 * "Apps with access": one row per consent (GET /api/consents) with Revoke
 * (DELETE /api/consents/{client_id}); written with textContent, since the
 * names come from the server's data, not from this page.
 * @param {HTMLUListElement} list
 */
async function setUpApps(list) {
  const t = data.account.apps;
  const status = byId('apps-status');
  const loaded = await callApi('GET', '/api/consents');
  list.setAttribute('aria-busy', 'false');
  if (!loaded.ok) {
    if (loaded.status === 401) return toSignIn();
    status.textContent = data.account.loadFailed;
    return;
  }
  /** @type {{ client_id: string, client_name: string, scopes: string[], granted_at: string }[]} */
  const consents = loaded.body?.consents ?? [];
  byId('apps-empty').hidden = consents.length > 0;
  for (const consent of consents) {
    const item = document.createElement('li');
    const text = document.createElement('div');
    const name = document.createElement('strong');
    name.textContent = consent.client_name;
    const detail = document.createElement('span');
    detail.className = 'hint';
    detail.textContent = format(t.granted, { date: dateOf(consent.granted_at) });
    text.append(name, detail);
    const revoke = document.createElement('button');
    revoke.type = 'button';
    revoke.className = 'secondary';
    revoke.textContent = t.revoke;
    revoke.dataset.busyLabel = t.revoking;
    revoke.setAttribute('aria-label', format(t.revokeLabel, { client: consent.client_name }));
    // Revoking cannot be undone from here: the row asks once more, as removing a passkey does.
    const question = document.createElement('p');
    question.textContent = format(t.confirm, { client: consent.client_name });
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'secondary';
    cancel.textContent = t.cancel;
    const confirm = document.createElement('button');
    confirm.type = 'button';
    confirm.className = 'danger';
    confirm.textContent = t.confirmRevoke;
    confirm.dataset.busyLabel = t.revoking;
    const actions = document.createElement('div');
    actions.className = 'row-actions';
    actions.append(cancel, confirm);
    revoke.addEventListener('click', () => {
      item.replaceChildren(question, actions);
      cancel.focus();
    });
    cancel.addEventListener('click', () => {
      item.replaceChildren(text, revoke);
      revoke.focus();
    });
    confirm.addEventListener('click', async () => {
      if (confirm.disabled) return;
      setBusy(confirm, true);
      const result = await callApi('DELETE', `/api/consents/${encodeURIComponent(consent.client_id)}`);
      if (!result.ok && result.status === 401) return toSignIn();
      if (!result.ok && result.status !== 404) {
        setBusy(confirm, false);
        status.textContent = errorMessage(result);
        return;
      }
      item.remove();
      status.textContent = format(t.revoked, { client: consent.client_name });
      byId('apps-empty').hidden = list.children.length > 0;
    });
    item.append(text, revoke);
    list.append(item);
  }
}

const termsList = /** @type {HTMLUListElement | null} */ (optional('terms-list'));
if (termsList) void setUpTerms(termsList);

/**
 * "Terms accepted": each term with the version the user accepted and when
 * (GET /api/terms, in the page's language).
 * @param {HTMLUListElement} list
 */
async function setUpTerms(list) {
  const t = data.account.terms;
  const loaded = await callApi('GET', `/api/terms?${new URLSearchParams({ locale: document.documentElement.lang })}`);
  list.setAttribute('aria-busy', 'false');
  if (!loaded.ok) return;
  /** @type {{ id: string, title: string, type: string, content: string, version: string, accepted_version: string | null, accepted_at: string | null }[]} */
  const terms = loaded.body?.terms ?? [];
  for (const term of terms) {
    const item = document.createElement('li');
    const text = document.createElement('div');
    const title = document.createElement(term.type === 'link' && /^https?:\/\//.test(term.content) ? 'a' : 'strong');
    title.textContent = term.title;
    if (title instanceof HTMLAnchorElement) {
      title.href = term.content;
      title.target = '_blank';
      title.rel = 'noopener noreferrer';
    }
    const detail = document.createElement('span');
    detail.className = 'hint';
    if (term.accepted_version === null || term.accepted_at === null) detail.textContent = t.notAccepted;
    else if (term.accepted_version !== term.version)
      detail.textContent = format(t.outdated, { accepted: term.accepted_version, version: term.version });
    else detail.textContent = format(t.accepted, { version: term.version, date: dateOf(term.accepted_at) });
    text.append(title, detail);
    item.append(text);
    list.append(item);
  }
}
