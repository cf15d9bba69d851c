// @ts-check
import { byId, callApi, queryParam, safeReturnTo } from './api.js';

/**
 * The consent page: GET /api/consent says which application asks for what;
 * Allow or Deny posts the decision and follows the answer's redirect_to
 * back to the authorization endpoint.
 */
const main = /** @type {HTMLElement} */ (document.querySelector('main'));
const error = byId('form-error');
const allow = /** @type {HTMLButtonElement} */ (byId('allow'));
const deny = /** @type {HTMLButtonElement} */ (byId('deny'));
const returnTo = safeReturnTo(queryParam('return_to'));

void load();

async function load() {
  if (!returnTo) {
    error.textContent = 'This page was opened without a valid request. Go back to the application and try again.';
    main.setAttribute('aria-busy', 'false');
    return;
  }
  const result = await callApi('GET', `/api/consent?${new URLSearchParams({ return_to: returnTo })}`);
  main.setAttribute('aria-busy', 'false');
  if (!result.ok) {
    if (result.status === 401) {
      location.assign(`/login?${new URLSearchParams({ return_to: location.pathname + location.search })}`);
      return;
    }
    error.textContent = result.message;
    return;
  }
  const { client, scopes } = result.body;
  byId('consent-title').textContent = `Allow ${client.name} to access your account?`;
  byId('consent-intro').textContent = `${client.name} is asking to:`;
  const list = byId('scope-list');
  for (const scope of scopes) {
    const item = document.createElement('li');
    item.textContent = scope.description;
    list.append(item);
  }
  const session = await callApi('GET', '/api/auth/session');
  if (session.ok) byId('account').textContent = `Signed in as ${session.body.user.email}`;
  allow.disabled = false;
  deny.disabled = false;
  allow.addEventListener('click', () => decide('allow'));
  deny.addEventListener('click', () => decide('deny'));
}

/** @param {'allow' | 'deny'} decision */
async function decide(decision) {
  allow.disabled = true;
  deny.disabled = true;
  error.textContent = '';
  const result = await callApi('POST', '/api/consent', { return_to: returnTo, decision });
  const next = result.ok ? safeReturnTo(result.body?.redirect_to) : null;
  if (next) {
    location.assign(next);
    return;
  }
  error.textContent = result.ok ? 'The server answered with an unexpected destination.' : result.message;
  allow.disabled = false;
  deny.disabled = false;
}
