// @ts-check
import { byId, callApi } from './api.js';

/** The start page: who is signed in here, and a way to sign out (GET /api/auth/session, POST /api/auth/logout). */
const main = /** @type {HTMLElement} */ (document.querySelector('main'));
const status = byId('status');
const signIn = byId('sign-in');
const signOut = /** @type {HTMLButtonElement} */ (byId('sign-out'));

void load();

async function load() {
  const result = await callApi('GET', '/api/auth/session');
  main.setAttribute('aria-busy', 'false');
  if (result.ok) {
    status.textContent = `You are signed in as ${result.body.user.email}.`;
    signOut.hidden = false;
    signIn.hidden = true;
  } else {
    status.textContent = 'You are not signed in.';
    signIn.hidden = false;
    signOut.hidden = true;
  }
}

signOut.addEventListener('click', async () => {
  signOut.disabled = true;
  const result = await callApi('POST', '/api/auth/logout');
  signOut.disabled = false;
  if (result.ok) await load();
  else byId('form-error').textContent = result.message;
});
