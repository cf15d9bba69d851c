// @ts-check
import { byId, callApi, pageData, safeReturnTo } from './api.js';
import { enhanceForm } from './form.js';

/**
 * The terms page (src/web/pages/terms-page.ts): Continue accepts the ticked
 * terms and the implicit ones at their current versions (POST
 * /api/terms/accept) and goes back to the authorization request, whose
 * terms step then lets it through; Decline goes back with terms_declined,
 * which ends the request with access_denied.
 */
const data = pageData();
const form = /** @type {HTMLFormElement} */ (byId('terms-form'));
const returnTo = safeReturnTo(data.returnTo) ?? '/';
const boxes = /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll('input[name="terms"]')]);

enhanceForm(form, {
  send() {
    // The versions the page showed: a version applied meanwhile is refused (409) rather than accepted unseen.
    /** @type {{ id: string, version: string }[]} */
    const shown = data.shown;
    const ticked = boxes.filter((box) => box.checked).flatMap((box) => shown.filter((term) => term.id === box.value));
    return callApi('POST', '/api/terms/accept', { terms: [...ticked, ...data.implicit] });
  },
  onSuccess() {
    location.assign(returnTo);
    return true;
  },
});

byId('decline').addEventListener('click', () => {
  const url = new URL(returnTo, location.origin);
  url.searchParams.set('terms_declined', 'true');
  location.assign(url.pathname + url.search);
});
