// @ts-check
import { appReturnTo, byId, callApi, format, pageData, safeReturnTo } from './api.js';
import { enhanceForm, errorMessage, setBusy } from './form.js';

/**
 * Registration (src/web/pages/register-page.ts): POST /api/auth/register
 * with the ticked terms (the implicit ones, which the signup notice names,
 * are accepted by registering), in the page's locale for the mail. An
 * active account is signed in and goes on to return_to; one that must
 * confirm its address is told to check its inbox, and may have the link
 * sent again.
 */
const data = pageData();
const form = /** @type {HTMLFormElement} */ (byId('register-form'));
const email = /** @type {HTMLInputElement} */ (byId('email'));
const password = /** @type {HTMLInputElement} */ (byId('password'));
const returnTo = safeReturnTo(data.returnTo) ?? appReturnTo(data.appReturnTo) ?? '/';
const terms = /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll('input[name="accepted_terms"]')]);
/** The mails are written in the page's language. */
const locale = new URLSearchParams({ locale: data.locale });

enhanceForm(form, {
  send() {
    const accepted = terms.filter((term) => term.checked).map((term) => term.value);
    return callApi('POST', `/api/auth/register?${locale}`, {
      email: email.value.trim(),
      password: password.value,
      ...(accepted.length > 0 ? { accepted_terms: accepted } : {}),
    });
  },
  onSuccess(result) {
    if (result.body?.status === 'active') {
      location.assign(returnTo);
      return true;
    }
    if (result.body?.status === 'second_factor_required') {
      // auth.second_factor asks a new account for a first factor: it is enrolled on the second-factor page.
      location.assign(data.secondFactorHref);
      return true;
    }
    byId('register-step').hidden = true;
    byId('check-inbox-message').textContent = format(data.register.checkInboxMessage, { email: email.value.trim() });
    byId('check-inbox').hidden = false;
    /** @type {HTMLElement} */ (byId('check-inbox').querySelector('h1')).focus();
  },
  fieldFor: {
    EMAIL_ALREADY_EXISTS: email,
    EMAIL_NOT_ALLOWED: email,
    PASSWORD_TOO_SHORT: password,
    TERMS_NOT_ACCEPTED: terms.find((term) => term.required) ?? null,
  },
});

const resend = /** @type {HTMLButtonElement} */ (byId('register-resend'));
resend.addEventListener('click', async () => {
  if (resend.disabled) return;
  const status = byId('register-status');
  setBusy(resend, true);
  const result = await callApi('POST', `/api/auth/email/resend?${locale}`, { email: email.value.trim() });
  setBusy(resend, false);
  status.textContent = result.ok ? format(data.register.resent, { email: email.value.trim() }) : errorMessage(result);
  if (!result.ok) status.dataset.code = result.code;
});
