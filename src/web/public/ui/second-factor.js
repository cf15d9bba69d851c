// @ts-check
import { appReturnTo, byId, callApi, format, pageData, safeReturnTo } from './api.js';
import { enhanceForm, errorMessage, setBusy, showProblems } from './form.js';
import {
  codeOf,
  codeProblems,
  setUpAuthenticatorApp,
  setUpPasskeyCreation,
  showRecoveryCodes,
} from './factor-setup.js';
import { wasDismissed, webauthn } from './webauthn.js';

/**
 * /login/second-factor (src/web/pages/second-factor-page.ts): completes the
 * pending sign-in with the authenticator app's code (POST
 * /api/auth/login/totp), a recovery code (/api/auth/login/recovery-code) or
 * a passkey (/api/auth/passkey/options and /verify), or enrols a first
 * factor (factor-setup.js), then goes back to return_to, where the sign-in
 * steps decide what comes next. A pending sign-in that ended meanwhile
 * (10 minutes) starts again at /login. Offered the step-up a client
 * requires (step_up=true), Continue starts it (POST /api/auth/step-up) and
 * loads the page again, which then shows the factors or the enrolment.
 */
const data = pageData();
const returnTo = safeReturnTo(data.returnTo) ?? appReturnTo(data.appReturnTo) ?? '/';
/** @param {string} id */
const optional = (id) => document.getElementById(id);
const startAgain = () => location.assign(data.loginHref);
const proceed = () => {
  location.assign(returnTo);
  return true;
};

const stepUpForm = /** @type {HTMLFormElement | null} */ (optional('step-up-form'));
if (stepUpForm) {
  enhanceForm(stepUpForm, {
    send: () => callApi('POST', '/api/auth/step-up', {}),
    onSuccess() {
      // The session waits for its second factor now: the same address shows what it waits for.
      location.replace(location.href);
      return true;
    },
    onFailure(result) {
      if (result.code === 'UNAUTHORIZED') startAgain();
      // Signed in with a second factor meanwhile (another tab): nothing to step up.
      if (result.code === 'STEP_UP_NOT_NEEDED') proceed();
    },
  });
}

const totpForm = /** @type {HTMLFormElement | null} */ (optional('totp-form'));
const recoveryForm = /** @type {HTMLFormElement | null} */ (optional('recovery-form'));

if (totpForm) {
  const code = /** @type {HTMLInputElement} */ (byId('totp-code'));
  code.focus();
  enhanceForm(totpForm, {
    check: () => codeProblems(code),
    send: () => callApi('POST', '/api/auth/login/totp', { code: codeOf(code) }),
    onSuccess: proceed,
    onFailure(result) {
      if (result.code === 'UNAUTHORIZED') startAgain();
      if (result.code === 'INVALID_CODE') code.value = '';
    },
    fieldFor: { INVALID_CODE: code },
  });
}

if (recoveryForm) {
  const code = /** @type {HTMLInputElement} */ (byId('recovery-code'));
  const useRecovery = /** @type {HTMLButtonElement} */ (byId('use-recovery'));
  const useApp = /** @type {HTMLButtonElement} */ (byId('use-app'));
  /** @param {boolean} recovery */
  const show = (recovery) => {
    recoveryForm.hidden = !recovery;
    if (totpForm) totpForm.hidden = recovery;
    useRecovery.hidden = recovery;
    useApp.hidden = !recovery || !totpForm;
    /** @type {HTMLElement} */ (recovery ? code : byId('totp-code')).focus();
  };
  useRecovery.addEventListener('click', () => show(true));
  useApp.addEventListener('click', () => show(false));
  enhanceForm(recoveryForm, {
    send: () => callApi('POST', '/api/auth/login/recovery-code', { code: code.value.trim() }),
    onSuccess(result) {
      const left = Number(result.body?.recovery_codes_left ?? 0);
      // Signed in: no control is left that offers another way in (the passkey and its divider included).
      recoveryForm.hidden = true;
      byId('recovery-switch').hidden = true;
      for (const leftover of [optional('use-passkey')?.parentElement, document.querySelector('.divider')])
        leftover?.setAttribute('hidden', '');
      optional('other-account')?.closest('p')?.setAttribute('hidden', '');
      byId('recovery-status').textContent =
        left > 0 ? format(data.secondFactor.recoveryLeft, { count: left }) : data.secondFactor.recoveryNoneLeft;
      const next = /** @type {HTMLAnchorElement} */ (byId('recovery-continue'));
      next.href = returnTo;
      byId('recovery-done').hidden = false;
      next.focus();
      return true;
    },
    onFailure(result) {
      if (result.code === 'UNAUTHORIZED') startAgain();
    },
    fieldFor: { INVALID_CODE: code },
  });
}

const usePasskey = /** @type {HTMLButtonElement | null} */ (optional('use-passkey'));
if (usePasskey) {
  const summary = byId('passkey-summary');
  const box = /** @type {HTMLElement} */ (usePasskey.parentElement);
  usePasskey.addEventListener('click', async () => {
    if (usePasskey.disabled) return;
    setBusy(usePasskey, true);
    const problem = await signInWithPasskey();
    if (problem === null) return;
    setBusy(usePasskey, false);
    showProblems(box, summary, [problem]);
  });
  if (!totpForm) usePasskey.focus();
}

/** @returns {Promise<import('./form.js').FormProblem | null>} null once the browser is on its way */
async function signInWithPasskey() {
  const lib = await webauthn();
  if (!lib.browserSupportsWebAuthn()) return { message: data.factors.passkeyUnsupported };
  const options = await callApi('POST', '/api/auth/passkey/options', {});
  if (!options.ok) return { message: errorMessage(options), code: options.code };
  let response;
  try {
    response = await lib.startAuthentication({ optionsJSON: options.body });
  } catch (error) {
    return {
      message: wasDismissed(error) ? data.factors.passkeyNotUsed : data.errors.INVALID_PASSKEY,
      code: 'INVALID_PASSKEY',
    };
  }
  const verified = await callApi('POST', '/api/auth/passkey/verify', { response });
  if (!verified.ok) return { message: errorMessage(verified), code: verified.code };
  proceed();
  return null;
}

optional('other-account')?.addEventListener('click', async () => {
  await callApi('POST', '/api/auth/logout');
  startAgain();
});

if (optional('app-start')) {
  setUpAuthenticatorApp({
    onConfirmed(codes) {
      // The confirmed app completed the sign-in: the codes are shown once, then the browser goes on.
      optional('enrol-passkey')?.setAttribute('hidden', '');
      optional('other-account')?.closest('p')?.setAttribute('hidden', '');
      showRecoveryCodes(codes, { onDone: proceed });
    },
    onUnauthorized: startAgain,
  });
}
if (optional('passkey-form')) setUpPasskeyCreation({ onCreated: proceed, onUnauthorized: startAgain });
if (!totpForm && !usePasskey) byId('page-heading').focus();
