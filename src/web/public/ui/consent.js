// @ts-check
import { byId, callApi, pageData, safeReturnTo } from './api.js';
import { errorMessage, setBusy, showProblems } from './form.js';

/**
 * The consent page (src/web/pages/consent-page.ts): Allow or Deny posts the
 * decision to POST /api/consent and follows the answer's redirect_to back
 * to the authorization endpoint. One decision at a time.
 */
const data = pageData();
const allow = /** @type {HTMLButtonElement} */ (byId('allow'));
const deny = /** @type {HTMLButtonElement} */ (byId('deny'));
const summary = byId('consent-summary');

/**
 * @param {'allow' | 'deny'} decision
 * @param {HTMLButtonElement} button
 */
async function decide(decision, button) {
  if (allow.disabled || deny.disabled) return;
  setBusy(button, true);
  (button === allow ? deny : allow).disabled = true;
  const result = await callApi('POST', '/api/consent', { return_to: data.returnTo, decision });
  const next = result.ok ? safeReturnTo(result.body?.redirect_to) : null;
  if (next) {
    location.assign(next);
    return;
  }
  setBusy(button, false);
  allow.disabled = false;
  deny.disabled = false;
  if (!result.ok) showProblems(document.body, summary, [{ message: errorMessage(result), code: result.code }]);
}

allow.addEventListener('click', () => decide('allow', allow));
deny.addEventListener('click', () => decide('deny', deny));
