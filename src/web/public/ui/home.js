// @ts-check
import { byId, callApi } from './api.js';
import { errorMessage, setBusy, showProblems } from './form.js';

/** The start page of a signed-in user: Sign out (POST /api/auth/logout) shows it again, signed out. */
const signOut = /** @type {HTMLButtonElement} */ (byId('sign-out'));
signOut.addEventListener('click', async () => {
  setBusy(signOut, true);
  const result = await callApi('POST', '/api/auth/logout');
  if (result.ok) {
    location.reload();
    return;
  }
  setBusy(signOut, false);
  showProblems(document.body, byId('home-summary'), [{ message: errorMessage(result), code: result.code }]);
});
