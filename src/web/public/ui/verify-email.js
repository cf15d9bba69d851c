// @ts-check
import { byId, callApi, format, pageData, queryParam } from './api.js';
import { enhanceForm, errorMessage } from './form.js';

/**
 * The verification link's page (src/web/pages/verify-email-page.ts): posts
 * the token once (POST /api/auth/email/verify) and shows the outcome; a
 * link that cannot be used offers a new one (POST /api/auth/email/resend,
 * which answers 202 whatever the address, so the page says "if").
 */
const data = pageData();
const token = queryParam('token');

/** @param {string} id */
function showPanel(id) {
  for (const panel of ['verifying', 'verified', 'verify-failed']) byId(panel).hidden = panel !== id;
  /** @type {HTMLElement | null} */ (byId(id).querySelector('h1'))?.focus();
}

if (token) void verify(token);

/** @param {string} value */
async function verify(value) {
  const result = await callApi('POST', '/api/auth/email/verify', { token: value });
  byId('verifying').setAttribute('aria-busy', 'false');
  if (result.ok) {
    const address = result.body?.user?.email;
    if (typeof address === 'string') {
      const link = /** @type {HTMLAnchorElement} */ (byId('verified-continue'));
      const url = new URL(link.href);
      url.searchParams.set('login_hint', address);
      link.href = url.pathname + url.search;
    }
    showPanel('verified');
    return;
  }
  byId('verify-failed').dataset.code = result.code;
  if (result.code !== 'INVALID_TOKEN') {
    const line = document.createElement('p');
    line.textContent = errorMessage(result);
    line.dataset.code = result.code;
    byId('resend-summary').replaceChildren(line);
  }
  showPanel('verify-failed');
}

const form = /** @type {HTMLFormElement} */ (byId('resend-form'));
const email = /** @type {HTMLInputElement} */ (byId('email'));
enhanceForm(form, {
  send: () =>
    callApi('POST', `/api/auth/email/resend?${new URLSearchParams({ locale: data.locale })}`, {
      email: email.value.trim(),
    }),
  onSuccess() {
    byId('resend-status').textContent = format(data.verifyEmail.resent, { email: email.value.trim() });
  },
});
