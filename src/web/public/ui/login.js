// @ts-check
import { byId, callApi, format, pageData, safeReturnTo } from './api.js';
import { enhanceForm, errorMessage, setBusy, showProblems } from './form.js';

/**
 * The sign-in page (src/web/pages/login-page.ts): POST /api/auth/login,
 * then back to return_to (the authorization request that sent the browser
 * here), where the sign-in steps (src/interaction) decide what comes next:
 * this page never does. With select_account, the accounts remembered in
 * this browser are offered first. An address that must be confirmed first
 * (403 EMAIL_NOT_VERIFIED) gets a button that sends the link again.
 */
const data = pageData();
const form = /** @type {HTMLFormElement} */ (byId('login-form'));
const email = /** @type {HTMLInputElement} */ (byId('email'));
const password = /** @type {HTMLInputElement} */ (byId('password'));
const summary = byId('login-summary');
const resendBox = byId('resend-verification');
const resendButton = /** @type {HTMLButtonElement} */ (byId('resend-button'));
const status = byId('login-status');
const returnTo = safeReturnTo(data.returnTo) ?? '/';

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
    if (result.body?.user) {
      location.assign(returnTo);
      return true;
    }
    showProblems(form, summary, [{ message: data.login.secondFactorRequired, code: 'SECOND_FACTOR_REQUIRED' }]);
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
  const result = await callApi('POST', `/api/auth/email/resend?${new URLSearchParams({ locale: data.locale })}`, { email: email.value.trim() });
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
    button.textContent = format(data.login.continueAs, { email: account.email });
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
    item.append(button);
    list.append(item);
  }
  byId('accounts').hidden = false;
}
