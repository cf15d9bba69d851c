// @ts-check
import { callApi, format, pageData } from './api.js';
import { errorMessage, setBusy, showProblems } from './form.js';

/**
 * The "Connected providers" section of /account (src/web/pages/account-page.ts):
 * the user's connections from GET /api/connections, each with Disconnect
 * (DELETE /api/connections/{provider_id}; the last way in is refused with
 * LAST_SIGN_IN_METHOD, shown as a sentence), and a Connect link per usable
 * provider (GET /api/auth/providers) not connected yet, which links it
 * through the upstream and comes back here.
 */
const data = pageData();
const body = document.getElementById('connections-body');
if (body) void render(body);

/** @param {HTMLElement} container */
async function render(container) {
  const t = data.account.connections;
  const summary = /** @type {HTMLElement} */ (document.getElementById('connections-summary'));
  const status = /** @type {HTMLElement} */ (document.getElementById('connections-status'));
  const list = /** @type {HTMLElement} */ (document.getElementById('connection-list'));
  const none = /** @type {HTMLElement} */ (document.getElementById('connections-none'));
  const connect = /** @type {HTMLElement} */ (document.getElementById('connect-list'));
  const [connections, providers] = await Promise.all([
    callApi('GET', '/api/connections'),
    callApi('GET', '/api/auth/providers'),
  ]);
  container.setAttribute('aria-busy', 'false');
  if (!connections.ok || !providers.ok) {
    const failed = !connections.ok ? connections : providers;
    if (!failed.ok)
      showProblems(container, summary, [{ message: errorMessage(failed), code: failed.code }], { focus: false });
    return;
  }
  const dateFormat = new Intl.DateTimeFormat(data.locale, { dateStyle: 'medium' });
  /** @type {{ provider_id: string, display_name: string, email: string | null, linked_at: string, available: boolean }[]} */
  const connected = connections.body.connections;
  list.replaceChildren(
    ...connected.map((connection) => {
      const item = document.createElement('li');
      const text = document.createElement('div');
      const name = document.createElement('strong');
      name.textContent = connection.display_name;
      const detail = document.createElement('span');
      detail.className = 'hint';
      const date = dateFormat.format(new Date(connection.linked_at));
      detail.textContent = connection.email
        ? format(t.connectedSince, { email: connection.email, date })
        : format(t.connectedSinceNoEmail, { date });
      text.append(name, detail);
      if (!connection.available) {
        const unavailable = document.createElement('span');
        unavailable.className = 'hint';
        unavailable.textContent = t.unavailable;
        text.append(unavailable);
      }
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'secondary';
      button.textContent = t.disconnect;
      button.dataset.busyLabel = t.disconnecting;
      button.setAttribute('aria-label', format(t.disconnectLabel, { provider: connection.display_name }));
      button.addEventListener('click', async () => {
        status.textContent = '';
        setBusy(button, true);
        const result = await callApi('DELETE', `/api/connections/${encodeURIComponent(connection.provider_id)}`);
        setBusy(button, false);
        if (!result.ok) {
          if (result.status === 401) return location.assign(`/login?${new URLSearchParams({ return_to: '/account' })}`);
          showProblems(container, summary, [
            { message: format(errorMessage(result), { provider: connection.display_name }), code: result.code },
          ]);
          return;
        }
        await render(container);
        status.textContent = format(t.disconnected, { provider: connection.display_name });
      });
      item.append(text, button);
      return item;
    }),
  );
  none.hidden = connected.length > 0;
  const linked = new Set(connected.map((connection) => connection.provider_id));
  /** @type {{ id: string, display_name: string }[]} */
  const offered = providers.body.providers.filter((/** @type {{ id: string }} */ provider) => !linked.has(provider.id));
  connect.replaceChildren(
    ...offered.map((provider) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.className = 'button secondary provider';
      link.href = `/api/auth/providers/${encodeURIComponent(provider.id)}/authorize?${new URLSearchParams({ intent: 'link', return_to: '/account#connections' })}`;
      link.textContent = format(t.connect, { provider: provider.display_name });
      item.append(link);
      return item;
    }),
  );
}
