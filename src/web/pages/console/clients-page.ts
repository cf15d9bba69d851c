import { formatMessage } from '../../../i18n/index.js';
import type { ClientConfig } from '../../../config/types.js';
import { html, type SafeHtml } from '../html.js';
import { pageHref, type PageContext } from '../page-context.js';
import { renderConsolePage, type ConsoleRequest } from './console-layout.js';

/** A client as the console shows it: the file's fields without the secret, which never reaches a page. */
export type ConsoleClientView = Omit<ClientConfig, 'clientSecret' | 'clientSecretHash'> & { confidential: boolean };

/** Drops the secret and keeps only whether there is one. */
export function consoleClientView(client: ClientConfig): ConsoleClientView {
  const { clientSecret, clientSecretHash, ...rest } = client;
  return { ...rest, confidential: clientSecret !== null || clientSecretHash !== null };
}

const clientPath = (id: string) => `/admin/clients/${encodeURIComponent(id)}`;

/** /admin/clients: the clients of the config file, read-only. */
export function renderConsoleClientsPage(
  context: PageContext,
  request: ConsoleRequest,
  clients: readonly ConsoleClientView[],
): string {
  const t = context.text.admin.clients;
  const rows = clients.map(
    (client) => html`
              <tr>
                <td data-label="${t.name}"><a href="${pageHref(context, clientPath(client.clientId))}">${client.name}</a><br><span class="mono">${client.clientId}</span></td>
                <td data-label="${t.type}">${client.confidential ? t.confidential : t.public}</td>
                <td data-label="${t.grants}"><ul class="tags">${client.grantTypes.map((grant) => html`<li class="tag mono">${grant}</li>`)}</ul></td>
              </tr>`,
  );
  const body = html`        <h1>${t.heading}</h1>
        <p>${t.intro}</p>
        <section class="panel">${
          clients.length === 0
            ? html`
          <p>${t.none}</p>`
            : html`
          <table class="console-table" id="clients-table">
            <thead><tr><th scope="col">${t.name}</th><th scope="col">${t.type}</th><th scope="col">${t.grants}</th></tr></thead>
            <tbody>${rows}</tbody>
          </table>`
        }
        </section>`;
  return renderConsolePage(context, request, { section: 'clients', task: t.task, body });
}

/**
 * /admin/clients/{client_id}: the client's settings, access rule and
 * redirect URIs. The secret never reaches the page: only whether there is one.
 */
export function renderConsoleClientPage(
  context: PageContext,
  request: ConsoleRequest,
  client: ConsoleClientView,
): string {
  const t = context.text.admin.client;
  const tc = context.text.admin.clients;
  const yesNo = (value: boolean) => (value ? t.yes : t.no);
  const list = (items: readonly string[]): SafeHtml | string =>
    items.length === 0
      ? t.noneListed
      : html`<ul class="list-plain">${items.map((item) => html`<li class="mono">${item}</li>`)}</ul>`;
  const { access } = client;
  const roles = context.text.admin.users.roleValue;
  const accessFacts =
    access === null
      ? html`<p>${t.accessEveryone}</p>`
      : html`<dl class="facts">
            <dt>${t.accessGroups}</dt><dd>${access.groups === null ? t.noneListed : list(access.groups)}</dd>
            <dt>${t.accessRoles}</dt><dd>${access.roles === null ? t.noneListed : access.roles.map((role) => roles[role]).join(', ')}</dd>
            <dt>${t.accessSecondFactor}</dt><dd>${yesNo(access.secondFactor === 'required')}</dd>
          </dl>`;
  const body = html`        <p><a href="${pageHref(context, '/admin/clients')}">${t.back}</a></p>
        <h1>${client.name}</h1>
        <p>${tc.intro}</p>
        <section class="panel" aria-labelledby="client-details">
          <h2 id="client-details">${t.details}</h2>
          <dl class="facts">
            <dt>${tc.clientId}</dt><dd class="mono">${client.clientId}</dd>
            <dt>${tc.type}</dt><dd>${client.confidential ? tc.confidential : tc.public}</dd>
            <dt>${tc.grants}</dt><dd>${list(client.grantTypes)}</dd>
            <dt>${t.authMethod}</dt><dd class="mono">${client.tokenEndpointAuthMethod}</dd>
            <dt>${t.scopes}</dt><dd>${list(client.scopes)}</dd>
            <dt>${t.requirePkce}</dt><dd>${yesNo(client.requirePkce)}</dd>
            <dt>${t.skipConsent}</dt><dd>${yesNo(client.skipConsent)}</dd>
            <dt>${t.par}</dt><dd>${yesNo(client.requirePushedAuthorizationRequests)}</dd>
            <dt>${t.idTokenAlg}</dt><dd class="mono">${client.idTokenSignedResponseAlg}</dd>
            <dt>${t.backchannel}</dt>${client.backchannelLogoutUri === null ? html`<dd>${t.noneListed}</dd>` : html`<dd class="mono">${client.backchannelLogoutUri}</dd>`}
          </dl>
        </section>
        <section class="panel" aria-labelledby="client-access">
          <h2 id="client-access">${t.access}</h2>
          ${accessFacts}
        </section>
        <section class="panel" aria-labelledby="client-uris">
          <h2 id="client-uris">${t.redirectUris}</h2>
          ${list(client.redirectUris)}
          <h3>${t.postLogoutRedirectUris}</h3>
          ${list(client.postLogoutRedirectUris)}
        </section>`;
  return renderConsolePage(context, request, {
    section: 'clients',
    task: formatMessage(t.task, { name: client.name }),
    body,
  });
}
