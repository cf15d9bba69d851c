// @ts-check
import { byId, pageData } from './api.js';
import { setBusy, showProblems } from './form.js';

/**
 * /device (src/web/pages/device-page.ts): the form is a plain GET to the
 * device verification, which comes back here with an error for a wrong
 * code. This adds what a script can: an empty field is caught before
 * leaving the page, the button shows progress while the next page loads,
 * and a code refused by the server gets the focus, so its error is read out.
 */
const data = pageData();
const form = /** @type {HTMLFormElement} */ (byId('device-form'));
const summary = byId('device-summary');
const code = /** @type {HTMLInputElement} */ (byId('user_code'));
const button = /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]'));

form.addEventListener('submit', (event) => {
  if (code.value.trim() === '') {
    event.preventDefault();
    showProblems(form, summary, [{ field: code, message: data.device.codeRequired }]);
    return;
  }
  setBusy(button, true);
});

// Coming back with the browser's Back button must not find the button still busy.
addEventListener('pageshow', () => setBusy(button, false));

if (code.getAttribute('aria-invalid') === 'true') {
  code.focus();
  code.select();
}
