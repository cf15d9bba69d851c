// @ts-check
import { byId, callApi, format, pageData } from './api.js';
import { enhanceForm, errorMessage, setBusy, showProblems } from './form.js';
import { alreadyRegistered, wasDismissed, webauthn } from './webauthn.js';

/**
 * What /login/second-factor (enrolment at sign-in) and /account share
 * (src/web/pages/factor-fragments.ts): setting up the authenticator app
 * (POST /api/user/totp, the QR code this server draws, the first code to
 * POST /api/user/totp/confirm), showing recovery codes once with Copy and
 * Download, and creating a passkey (POST /api/user/passkeys/options, the
 * browser's ceremony, POST /api/user/passkeys).
 *
 * @typedef {import('./form.js').FormProblem} FormProblem
 * @typedef {import('./api.js').ApiResult} ApiResult
 */
const data = pageData();

/** @param {HTMLInputElement} input A code as typed: the app shows it as "123 456". */
export const codeOf = (input) => input.value.replace(/\s/g, '');

/**
 * @param {HTMLInputElement} input
 * @returns {FormProblem[]}
 */
export function codeProblems(input) {
  return /^[0-9]{6}$/.test(codeOf(input)) || input.value.trim() === ''
    ? []
    : [{ field: input, message: data.factors.codeInvalid }];
}

/** The key in groups of four, as apps ask for it. @param {string} secret */
const grouped = (secret) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * @param {{ onConfirmed: (recoveryCodes: string[]) => void, onUnauthorized: () => void }} handlers
 */
export function setUpAuthenticatorApp(handlers) {
  const startBox = byId('app-start-box');
  const start = /** @type {HTMLButtonElement} */ (byId('app-start'));
  const startSummary = byId('app-start-summary');
  const setup = byId('app-setup');
  const qr = /** @type {HTMLImageElement} */ (byId('app-qr'));
  const form = /** @type {HTMLFormElement} */ (byId('app-confirm-form'));
  const code = /** @type {HTMLInputElement} */ (byId('app-code'));

  start.addEventListener('click', async () => {
    if (start.disabled) return;
    setBusy(start, true);
    const begun = await callApi('POST', '/api/user/totp');
    setBusy(start, false);
    if (!begun.ok) {
      if (begun.code === 'UNAUTHORIZED') return handlers.onUnauthorized();
      showProblems(startBox, startSummary, [{ message: errorMessage(begun), code: begun.code }]);
      return;
    }
    startSummary.replaceChildren();
    // A new address each time: the image is of this enrolment's secret, never one cached before.
    qr.src = `/ui/authenticator-app-qr.svg?${new URLSearchParams({ v: String(Date.now()) })}`;
    byId('app-secret').textContent = grouped(String(begun.body?.secret ?? ''));
    startBox.hidden = true;
    setup.hidden = false;
    code.value = '';
    code.focus();
  });

  byId('app-cancel').addEventListener('click', () => {
    setup.hidden = true;
    startBox.hidden = false;
    start.focus();
  });

  enhanceForm(form, {
    check: () => codeProblems(code),
    send: () => callApi('POST', '/api/user/totp/confirm', { code: codeOf(code) }),
    onSuccess(result) {
      setup.hidden = true;
      handlers.onConfirmed(Array.isArray(result.body?.recovery_codes) ? result.body.recovery_codes : []);
    },
    onFailure(result) {
      if (result.code === 'UNAUTHORIZED') handlers.onUnauthorized();
    },
    fieldFor: { INVALID_CODE: code },
  });
}

/**
 * The recovery codes, this once: the list, Copy, Download (a text file
 * made here, never fetched), and "I have saved them".
 * @param {string[]} codes
 * @param {{ onDone: () => void }} handlers
 */
export function showRecoveryCodes(codes, handlers) {
  const reveal = byId('codes-reveal');
  const list = byId('codes-list');
  const status = byId('codes-status');
  const text = codes.join('\n');
  list.replaceChildren(
    ...codes.map((code) => {
      const item = document.createElement('li');
      const value = document.createElement('code');
      value.textContent = code;
      item.append(value);
      return item;
    }),
  );
  status.textContent = '';
  reveal.hidden = false;
  byId('codes-heading').focus();

  const copy = /** @type {HTMLButtonElement} */ (byId('codes-copy'));
  const download = /** @type {HTMLButtonElement} */ (byId('codes-download'));
  const done = /** @type {HTMLButtonElement} */ (byId('codes-done'));
  copy.onclick = async () => {
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = data.factors.copied;
    } catch {
      // Without clipboard access (an old browser, a denied permission) the codes stay selectable on the page.
      getSelection()?.selectAllChildren(list);
    }
  };
  download.onclick = () => {
    const title = format(data.factors.codesFileTitle, { brand: data.brand, email: data.email });
    const url = URL.createObjectURL(new Blob([`${title}\n\n${text}\n`], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = data.factors.codesFileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  done.onclick = () => {
    reveal.hidden = true;
    list.replaceChildren();
    handlers.onDone();
  };
}

/**
 * A passkey ceremony that did not happen (dismissed, or a browser without
 * WebAuthn), in the API's result shape, so that a form shows it like any
 * other failure; the page says which.
 * @type {ApiResult}
 */
export const ceremonyFailure = { ok: false, status: 0, code: 'PASSKEY_NOT_USED', retryAfter: null, details: [] };

/**
 * @param {{ onCreated: (passkey: { id: string, name: string }) => void, onUnauthorized: () => void }} handlers
 */
export function setUpPasskeyCreation(handlers) {
  const form = /** @type {HTMLFormElement} */ (byId('passkey-form'));
  const name = /** @type {HTMLInputElement} */ (byId('passkey-name'));
  /** @type {string | null} */
  let ceremonyMessage = null;
  enhanceForm(form, {
    async send() {
      ceremonyMessage = null;
      const lib = await webauthn();
      if (!lib.browserSupportsWebAuthn()) {
        ceremonyMessage = data.factors.passkeyUnsupported;
        return ceremonyFailure;
      }
      const options = await callApi('POST', '/api/user/passkeys/options');
      if (!options.ok) return options;
      let response;
      try {
        response = await lib.startRegistration({ optionsJSON: options.body });
      } catch (error) {
        if (wasDismissed(error)) ceremonyMessage = data.factors.passkeyNotUsed;
        else if (alreadyRegistered(error)) ceremonyMessage = data.factors.passkeyAlreadyRegistered;
        else
          ceremonyMessage = errorMessage({
            ok: false,
            status: 0,
            code: 'INVALID_PASSKEY',
            retryAfter: null,
            details: [],
          });
        return ceremonyFailure;
      }
      return callApi('POST', '/api/user/passkeys', { response, name: name.value.trim() });
    },
    onSuccess(result) {
      handlers.onCreated(result.body?.passkey ?? { id: '', name: name.value.trim() });
    },
    onFailure(result) {
      if (result.code === 'UNAUTHORIZED') handlers.onUnauthorized();
      if (ceremonyMessage !== null) return [{ message: ceremonyMessage, code: result.code }];
    },
  });
}
