// @ts-check
import { byId, callApi, format, pageData } from './api.js';
import { enhanceForm, errorMessage, setBusy, showProblems } from './form.js';
import {
  codeOf,
  codeProblems,
  setUpAuthenticatorApp,
  setUpPasskeyCreation,
  showRecoveryCodes,
} from './factor-setup.js';

/**
 * The second-factor sections of /account (src/web/pages/account-page.ts):
 * the authenticator app (set up, or removed after a code: DELETE
 * /api/user/totp), the recovery codes (how many are left, from GET
 * /api/user; new ones after a code: POST /api/user/recovery-codes) and the
 * passkeys (GET /api/user/passkeys; PATCH and DELETE each, added through
 * factor-setup.js). account.js imports this module.
 */
const data = pageData();
const f = data.factors;
/** @param {string} id */
const optional = (id) => document.getElementById(id);
const toSignIn = () => location.assign(`/login?${new URLSearchParams({ return_to: '/account' })}`);

/**
 * A confirmation that opens from a button (codeConfirmation in account-page.ts).
 * @param {string} id
 */
function confirmation(id) {
  const start = /** @type {HTMLButtonElement} */ (byId(`${id}-start`));
  const form = /** @type {HTMLFormElement} */ (byId(`${id}-form`));
  const code = /** @type {HTMLInputElement} */ (byId(`${id}-code`));
  /** @param {boolean} open */
  const toggle = (open) => {
    form.hidden = !open;
    start.hidden = open;
    start.setAttribute('aria-expanded', String(open));
    if (open) {
      code.value = '';
      code.focus();
    }
  };
  start.addEventListener('click', () => toggle(true));
  byId(`${id}-cancel`).addEventListener('click', () => {
    toggle(false);
    start.focus();
  });
  return { form, code, close: () => toggle(false) };
}

if (optional('authenticator-app')) void setUp();

async function setUp() {
  const appState = byId('app-state');
  const codesState = byId('codes-state');
  const startBox = byId('app-start-box');
  const removeBox = byId('app-remove-box');
  const codesBox = byId('codes-new-box');

  /** Shows what GET /api/user says now. */
  async function refresh() {
    const loaded = await callApi('GET', '/api/user');
    if (!loaded.ok) {
      if (loaded.status === 401) return toSignIn();
      appState.textContent = errorMessage(loaded);
      return;
    }
    const user = loaded.body?.user ?? {};
    const registered = user.totp_registered === true;
    const left = Number(user.recovery_codes_left ?? 0);
    appState.textContent = registered ? (appState.dataset.on ?? '') : (appState.dataset.off ?? '');
    startBox.hidden = registered || !byId('app-setup').hidden;
    removeBox.hidden = !registered;
    codesBox.hidden = !registered;
    codesState.textContent = !registered
      ? (codesState.dataset.noApp ?? '')
      : left > 0
        ? format(codesState.dataset.left ?? '', { count: left })
        : (codesState.dataset.noneLeft ?? '');
  }

  setUpAuthenticatorApp({
    onConfirmed(codes) {
      void refresh();
      showRecoveryCodes(codes, { onDone: () => byId('codes-new-start').focus() });
    },
    onUnauthorized: toSignIn,
  });

  const remove = confirmation('app-remove');
  const appStatus = byId('app-status');
  enhanceForm(remove.form, {
    check: () => codeProblems(remove.code),
    send: () => {
      appStatus.textContent = '';
      return callApi('DELETE', '/api/user/totp', { code: codeOf(remove.code) });
    },
    async onSuccess() {
      remove.close();
      await refresh();
      appStatus.textContent = f.account.appRemoved;
    },
    onFailure(result) {
      if (result.code === 'UNAUTHORIZED') toSignIn();
    },
    fieldFor: { INVALID_CODE: remove.code },
  });

  const renew = confirmation('codes-new');
  enhanceForm(renew.form, {
    check: () => codeProblems(renew.code),
    send: () => callApi('POST', '/api/user/recovery-codes', { code: codeOf(renew.code) }),
    async onSuccess(result) {
      renew.close();
      await refresh();
      showRecoveryCodes(Array.isArray(result.body?.recovery_codes) ? result.body.recovery_codes : [], {
        onDone: () => byId('codes-new-start').focus(),
      });
    },
    onFailure(result) {
      if (result.code === 'UNAUTHORIZED') toSignIn();
    },
    fieldFor: { INVALID_CODE: renew.code },
  });

  await refresh();
  if (optional('passkeys')) await setUpPasskeys();
}

/**
 * @typedef {{ id: string, name: string, created_at: string, last_used_at: string | null, device_type: string }} Passkey
 */
async function setUpPasskeys() {
  const list = byId('passkey-list');
  const none = byId('passkeys-none');
  const summary = byId('passkeys-summary');
  const status = byId('passkeys-status');
  const section = byId('passkeys');
  const date = new Intl.DateTimeFormat(data.locale, { dateStyle: 'medium' });

  async function load() {
    const loaded = await callApi('GET', '/api/user/passkeys');
    if (!loaded.ok) {
      if (loaded.status === 401) return toSignIn();
      showProblems(section, summary, [{ message: errorMessage(loaded), code: loaded.code }], { focus: false });
      return;
    }
    /** @type {Passkey[]} */
    const passkeys = Array.isArray(loaded.body?.passkeys) ? loaded.body.passkeys : [];
    none.hidden = passkeys.length > 0;
    list.replaceChildren(...passkeys.map(row));
  }

  /** @param {Passkey} passkey */
  function row(passkey) {
    const item = document.createElement('li');
    item.className = 'passkey-item';
    item.dataset.id = passkey.id;
    const name = document.createElement('strong');
    name.className = 'passkey-name';
    name.textContent = passkey.name;
    const meta = document.createElement('span');
    meta.className = 'hint';
    const used = passkey.last_used_at
      ? format(f.account.passkeyLastUsed, { date: date.format(new Date(passkey.last_used_at)) })
      : f.account.passkeyNeverUsed;
    meta.textContent = [
      format(f.account.passkeyCreated, { date: date.format(new Date(passkey.created_at)) }),
      used,
      ...(passkey.device_type === 'multi_device' ? [f.account.passkeySynced] : []),
    ].join(' · ');
    const actions = document.createElement('div');
    actions.className = 'row-actions';
    const rename = button(f.account.passkeyRename, 'secondary');
    const removal = button(f.account.passkeyRemove, 'danger-outline');
    rename.setAttribute('aria-label', `${f.account.passkeyRename}: ${passkey.name}`);
    removal.setAttribute('aria-label', `${f.account.passkeyRemove}: ${passkey.name}`);
    rename.addEventListener('click', () => startRename(item, passkey));
    removal.addEventListener('click', () => askRemoval(item, passkey));
    actions.append(rename, removal);
    item.append(name, meta, actions);
    return item;
  }

  /** @param {string} label @param {string} className */
  function button(label, className) {
    const element = document.createElement('button');
    element.type = 'button';
    element.className = className;
    element.textContent = label;
    return element;
  }

  /** @param {HTMLElement} item @param {Passkey} passkey */
  function startRename(item, passkey) {
    const form = document.createElement('form');
    form.className = 'inline-form';
    form.noValidate = true;
    const input = document.createElement('input');
    input.id = `rename-${passkey.id}`;
    input.name = 'name';
    input.value = passkey.name;
    input.required = true;
    input.maxLength = 100;
    input.setAttribute('aria-label', f.passkeyName);
    const save = button(f.account.passkeyRenameSave, 'primary');
    save.type = 'submit';
    const cancel = button(f.cancel, 'secondary');
    cancel.addEventListener('click', () => void load());
    form.append(input, save, cancel);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (save.disabled || input.value.trim() === '') return;
      setBusy(save, true);
      const renamed = await callApi('PATCH', `/api/user/passkeys/${encodeURIComponent(passkey.id)}`, {
        name: input.value.trim(),
      });
      setBusy(save, false);
      if (!renamed.ok) {
        if (renamed.status === 401) return toSignIn();
        showProblems(section, summary, [{ message: errorMessage(renamed), code: renamed.code }]);
        return;
      }
      await load();
    });
    item.replaceChildren(form);
    input.focus();
    input.select();
  }

  /** @param {HTMLElement} item @param {Passkey} passkey */
  function askRemoval(item, passkey) {
    const question = document.createElement('p');
    question.textContent = format(f.account.passkeyRemoveConfirm, { name: passkey.name });
    const confirm = button(f.account.passkeyRemove, 'danger');
    const cancel = button(f.cancel, 'secondary');
    cancel.addEventListener('click', () => void load());
    confirm.addEventListener('click', async () => {
      if (confirm.disabled) return;
      setBusy(confirm, true);
      const removed = await callApi('DELETE', `/api/user/passkeys/${encodeURIComponent(passkey.id)}`);
      setBusy(confirm, false);
      if (!removed.ok) {
        if (removed.status === 401) return toSignIn();
        showProblems(section, summary, [{ message: errorMessage(removed), code: removed.code }]);
        return;
      }
      summary.replaceChildren();
      status.textContent = format(f.account.passkeyRemoved, { name: passkey.name });
      await load();
    });
    const actions = document.createElement('div');
    actions.className = 'row-actions';
    actions.append(cancel, confirm);
    item.replaceChildren(question, actions);
    cancel.focus();
  }

  setUpPasskeyCreation({
    async onCreated(passkey) {
      /** @type {HTMLInputElement} */ (byId('passkey-name')).value = f.passkeyDefaultName;
      // The list first: "added" then reads beside the passkey it names.
      await load();
      status.textContent = format(f.account.passkeyAdded, { name: passkey.name });
    },
    onUnauthorized: toSignIn,
  });
  await load();
}
