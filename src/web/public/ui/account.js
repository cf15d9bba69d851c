// @ts-check
import { byId, callApi, pageData } from './api.js';
import { enhanceForm, setBusy, showProblems } from './form.js';
import './account-connections.js';

/**
 * /account (src/web/pages/account-page.ts): the profile from GET /api/user
 * saved with PATCH /api/user, the password with POST /api/user/password,
 * and the account deleted with DELETE /api/user after a confirmation. Each
 * section's form only exists when the page rendered it.
 */
const data = pageData();

/** @param {string} id */
const optional = (id) => document.getElementById(id);

/** A session that ended meanwhile: sign in again and come back. */
function toSignIn() {
  location.assign(`/login?${new URLSearchParams({ return_to: '/account' })}`);
}

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
      return callApi('POST', '/api/user/password', { ...(current ? { current_password: current.value } : {}), new_password: next.value });
    },
    onSuccess() {
      if (current) current.value = '';
      next.value = '';
      status.textContent = data.account.password.changed;
    },
    onFailure(result) {
      if (result.code === 'UNAUTHORIZED') toSignIn();
    },
    fieldFor: { INVALID_CREDENTIALS: current, PASSWORD_TOO_SHORT: next },
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
    },
    fieldFor: { INVALID_CREDENTIALS: password },
  });
}
