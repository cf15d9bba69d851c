// @ts-check
import { byId, callApi, queryParam } from './api.js';
import { enhanceForm } from './form.js';

/**
 * The reset link's page (src/web/pages/reset-password-page.ts): the new
 * password and the token to POST /api/auth/password/reset (204; every
 * session of the account ends). A link that cannot be used leads to a new one.
 */
const form = /** @type {HTMLFormElement} */ (byId('reset-form'));
const password = /** @type {HTMLInputElement} */ (byId('password'));

enhanceForm(form, {
  send: () =>
    callApi('POST', '/api/auth/password/reset', { token: queryParam('token') ?? '', password: password.value }),
  onSuccess() {
    byId('reset-step').hidden = true;
    byId('reset-done').hidden = false;
    /** @type {HTMLElement} */ (byId('reset-done').querySelector('h1')).focus();
  },
  onFailure(result) {
    byId('reset-new-link').hidden = result.code !== 'INVALID_TOKEN';
  },
  fieldFor: { PASSWORD_TOO_SHORT: password },
});
