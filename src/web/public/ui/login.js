// @ts-check
import { byId, callApi, queryParam, safeReturnTo } from './api.js';

/**
 * The sign-in page: POST /api/auth/login, then back to return_to (the
 * authorization request that sent the browser here), where the sign-in
 * steps (src/interaction) decide what comes next: this page never does.
 * With select_account, the accounts remembered in this browser are offered first.
 */
const form = /** @type {HTMLFormElement} */ (byId('login-form'));
const email = /** @type {HTMLInputElement} */ (byId('email'));
const password = /** @type {HTMLInputElement} */ (byId('password'));
const error = byId('form-error');
const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]'));
const returnTo = safeReturnTo(queryParam('return_to')) ?? '/';

const hint = queryParam('login_hint');
if (hint) email.value = hint;
(hint ? password : email).focus();
if (queryParam('select_account') === 'true') void showAccounts();

/** @param {boolean} invalid */
function markInvalid(invalid) {
  for (const input of [email, password]) {
    if (invalid) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  markInvalid(false);
  if (!email.value.trim() || !password.value) {
    error.textContent = 'Enter your email and password.';
    (email.value.trim() ? password : email).focus();
    return;
  }
  submit.disabled = true;
  const result = await callApi('POST', '/api/auth/login', { email: email.value.trim(), password: password.value });
  submit.disabled = false;
  if (result.ok && result.body?.user) {
    location.assign(returnTo);
    return;
  }
  if (result.ok) {
    error.textContent = 'A second factor is required to finish signing in.';
    return;
  }
  error.textContent = result.status === 429 && result.retryAfter
    ? `${result.message} (try again in ${result.retryAfter} seconds)`
    : result.message;
  markInvalid(result.status === 401);
  password.value = '';
  password.focus();
});

async function showAccounts() {
  const result = await callApi('GET', '/api/auth/accounts');
  if (!result.ok || !Array.isArray(result.body?.accounts) || result.body.accounts.length === 0) return;
  const list = byId('account-list');
  for (const account of result.body.accounts) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'secondary';
    button.textContent = `Continue as ${account.email}`;
    button.addEventListener('click', async () => {
      const selected = await callApi('POST', '/api/auth/accounts/select', { sub: account.sub });
      if (selected.ok) location.assign(returnTo);
      else error.textContent = selected.message;
    });
    item.append(button);
    list.append(item);
  }
  byId('accounts').hidden = false;
}
