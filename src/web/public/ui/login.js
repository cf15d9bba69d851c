// @ts-check
import { appReturnTo, byId, callApi, format, pageData, safeReturnTo } from './api.js';
import { enhanceForm, errorMessage, setBusy, showProblems } from './form.js';
import { wasDismissed, webauthn } from './webauthn.js';

/**
 * The sign-in page (src/web/pages/login-page.ts): POST /api/auth/login,
 * then back to return_to (the authorization request that sent the browser
 * here), where the sign-in steps (src/interaction) decide what comes next:
 * this page never does. A sign-in that waits for a second factor (or the
 * enrolment of one) goes on at /login/second-factor. With select_account,
 * the accounts remembered in this browser are offered first. An address
 * that must be confirmed first (403 EMAIL_NOT_VERIFIED) gets a button that
 * sends the link again. With passkeys on, "Sign in with a passkey" asks the
 * browser for one (POST /api/auth/passkey/options and /verify), and the
 * e-mail field offers them too, through the browser's autofill
 * (conditional mediation), where the browser can.
 */
const data = pageData();
const form = /** @type {HTMLFormElement} */ (byId('login-form'));
const email = /** @type {HTMLInputElement} */ (byId('email'));
const password = /** @type {HTMLInputElement} */ (byId('password'));
const summary = byId('login-summary');
const resendBox = byId('resend-verification');
const resendButton = /** @type {HTMLButtonElement} */ (byId('resend-button'));
const status = byId('login-status');
const returnTo = safeReturnTo(data.returnTo) ?? appReturnTo(data.appReturnTo) ?? '/';

if (summary.textContent?.trim()) summary.focus();
else (email.value ? password : email).focus();
if (data.selectAccount) void showAccounts();

enhanceForm(form, {
  send() {
    resendBox.hidden = true;
    status.textContent = '';
    return callApi('POST', '/api/auth/login', { email: email.value.trim(), password: password.value });
  },
  onSuccess(result) {
    location.assign(result.body?.user ? returnTo : data.secondFactorHref);
    return true;
  },
  onFailure(result) {
    if (result.code === 'EMAIL_NOT_VERIFIED') resendBox.hidden = false;
    if (result.code !== 'INVALID_CREDENTIALS') return;
    password.value = '';
    return [{ message: errorMessage(result), code: result.code, invalid: [password, email] }];
  },
});

resendButton.addEventListener('click', async () => {
  if (resendButton.disabled) return;
  if (!email.value.trim()) {
    showProblems(form, summary, [{ message: data.common.emailRequired, field: email }]);
    return;
  }
  setBusy(resendButton, true);
  const result = await callApi('POST', `/api/auth/email/resend?${new URLSearchParams({ locale: data.locale })}`, {
    email: email.value.trim(),
  });
  setBusy(resendButton, false);
  if (result.ok) {
    resendBox.hidden = true;
    summary.replaceChildren();
    status.textContent = format(data.login.resent, { email: email.value.trim() });
  } else {
    showProblems(form, summary, [{ message: errorMessage(result), code: result.code }]);
  }
});

async function showAccounts() {
  const result = await callApi('GET', '/api/auth/accounts');
  if (!result.ok || !Array.isArray(result.body?.accounts) || result.body.accounts.length === 0) return;
  const list = byId('account-list');
  for (const account of result.body.accounts) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'account-choice';
    // The name first where the profile has one: addresses alone are hard to tell apart.
    const who = account.name ? `${account.name} (${account.email})` : account.email;
    if (account.name) {
      const name = document.createElement('span');
      name.className = 'account-name';
      name.textContent = account.name;
      const address = document.createElement('span');
      address.className = 'account-email';
      address.textContent = account.email;
      button.append(name, address);
      button.setAttribute('aria-label', format(data.login.continueAs, { email: who }));
    } else {
      button.textContent = format(data.login.continueAs, { email: account.email });
    }
    const forget = document.createElement('button');
    forget.type = 'button';
    forget.className = 'link-button account-forget';
    forget.textContent = data.login.forget;
    forget.setAttribute('aria-label', format(data.login.forgetLabel, { account: who }));
    forget.addEventListener('click', async () => {
      if (forget.disabled) return;
      setBusy(forget, true);
      const forgotten = await callApi('POST', '/api/auth/accounts/forget', { sub: account.sub });
      if (!forgotten.ok && forgotten.code !== 'ACCOUNT_NOT_REMEMBERED') {
        setBusy(forget, false);
        showProblems(form, summary, [{ message: errorMessage(forgotten), code: forgotten.code }]);
        return;
      }
      item.remove();
      status.textContent = format(data.login.forgotten, { account: account.name ?? account.email });
      if (list.children.length === 0) byId('accounts').hidden = true;
      email.focus();
    });
    button.addEventListener('click', async () => {
      setBusy(button, true);
      const selected = await callApi('POST', '/api/auth/accounts/select', { sub: account.sub });
      if (selected.ok) {
        location.assign(returnTo);
        return;
      }
      setBusy(button, false);
      showProblems(form, summary, [{ message: errorMessage(selected), code: selected.code }]);
    });
    item.append(button, forget);
    list.append(item);
  }
  byId('accounts').hidden = false;
}

const passkeyButton = /** @type {HTMLButtonElement | null} */ (document.getElementById('passkey-sign-in'));
if (data.passkeys && passkeyButton) {
  passkeyButton.addEventListener('click', async () => {
    if (passkeyButton.disabled) return;
    setBusy(passkeyButton, true);
    const problem = await signInWithPasskey(false);
    if (problem === null) return;
    setBusy(passkeyButton, false);
    showProblems(form, summary, [problem]);
  });
  void offerPasskeysInAutofill();
}

/**
 * A passkey sign-in (passwordless): the options, the browser's ceremony
 * (in the e-mail field's autofill with `autofill`), the verification.
 * @param {boolean} autofill
 * @returns {Promise<import('./form.js').FormProblem | null>} null once the browser is on its way, or when an autofill request simply ended
 */
async function signInWithPasskey(autofill) {
  const lib = await webauthn();
  if (!lib.browserSupportsWebAuthn()) return autofill ? null : { message: data.factors.passkeyUnsupported };
  const options = await callApi('POST', '/api/auth/passkey/options', {});
  if (!options.ok) return { message: errorMessage(options), code: options.code };
  let response;
  try {
    response = await lib.startAuthentication({ optionsJSON: options.body, useBrowserAutofill: autofill });
  } catch (error) {
    // The autofill request ends quietly whenever the button starts a ceremony of its own, or the page goes.
    if (autofill) return null;
    return {
      message: wasDismissed(error) ? data.factors.passkeyNotUsed : data.errors.INVALID_PASSKEY,
      code: 'INVALID_PASSKEY',
    };
  }
  const verified = await callApi('POST', '/api/auth/passkey/verify', { response });
  if (!verified.ok) return { message: errorMessage(verified), code: verified.code };
  location.assign(verified.body?.user ? returnTo : data.secondFactorHref);
  return null;
}

/** Conditional mediation (WebAuthn §5.1.4): the e-mail field (autocomplete "username webauthn") lists the passkeys of this site. */
async function offerPasskeysInAutofill() {
  const lib = await webauthn();
  if (!(await lib.browserSupportsWebAuthnAutofill())) return;
  const problem = await signInWithPasskey(true);
  if (problem) showProblems(form, summary, [problem]);
}
