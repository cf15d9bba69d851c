// @ts-check
import { byId, callApi, format, pageData } from './api.js';
import { enhanceForm } from './form.js';

/**
 * "Forgot password?" (src/web/pages/forgot-password-page.ts): POST
 * /api/auth/password/forgot answers 202 whether or not the address has an
 * account, so the page says what happens if it does, and never more.
 */
const data = pageData();
const form = /** @type {HTMLFormElement} */ (byId('forgot-form'));
const email = /** @type {HTMLInputElement} */ (byId('email'));

enhanceForm(form, {
  send: () =>
    callApi('POST', `/api/auth/password/forgot?${new URLSearchParams({ locale: data.locale })}`, {
      email: email.value.trim(),
    }),
  onSuccess() {
    byId('forgot-step').hidden = true;
    byId('forgot-sent-message').textContent = format(data.forgotPassword.sentMessage, { email: email.value.trim() });
    byId('forgot-sent').hidden = false;
    /** @type {HTMLElement} */ (byId('forgot-sent').querySelector('h1')).focus();
  },
});
