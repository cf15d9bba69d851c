import { formatMessage } from '../../../i18n/index.js';
import type { ConsoleUser } from './console-views.js';

import { html, type SafeHtml } from '../html.js';
import { pageHref, type PageContext } from '../page-context.js';
import { renderConsolePage, type ConsoleRequest } from './console-layout.js';

export interface UsersFilter {
  query: string;
  managedBy: 'database' | 'config' | null;
  role: 'user' | 'admin' | null;
  includeDeleted: boolean;
  page: number;
}

export interface UsersPage {
  filter: UsersFilter;
  pageSize: number;
  users: ConsoleUser[];
  total: number;
}

/** The filter as the list's query string (only what differs from the defaults), for the pager's links. */
export function usersQuery(filter: UsersFilter, page: number): Record<string, string | null> {
  return {
    q: filter.query || null,
    managed_by: filter.managedBy,
    role: filter.role,
    deleted: filter.includeDeleted ? 'include' : null,
    page: page > 1 ? String(page) : null,
  };
}

/**
 * /admin/users: search (e-mail or sub), the managed_by, role and deleted
 * filters as a GET form (so a filtered list is an address to share), the
 * users as a table, and the pages. Each e-mail links to the user's page.
 */
export function renderConsoleUsersPage(context: PageContext, request: ConsoleRequest, page: UsersPage): string {
  const t = context.text.admin.users;
  const { filter } = page;
  const option = <T extends string>(value: T | '', label: string, current: T | null) =>
    html`<option value="${value}"${(current ?? '') === value ? html` selected` : ''}>${label}</option>`;
  const filters = html`    <form class="console-filters panel" method="get" action="/admin/users" role="search">${
    context.chosenLocale && html`<input type="hidden" name="locale" value="${context.chosenLocale}">`
  }
      <div class="field">
        <label for="users-q">${t.search}</label>
        <input id="users-q" name="q" type="search" value="${filter.query}" aria-describedby="users-q-hint" maxlength="320">
        <p class="hint" id="users-q-hint">${t.searchHint}</p>
      </div>
      <div class="field">
        <label for="users-managed-by">${t.managedBy}</label>
        <select id="users-managed-by" name="managed_by">${option('', t.any, filter.managedBy)}${option('database', t.managedByValue.database, filter.managedBy)}${option('config', t.managedByValue.config, filter.managedBy)}</select>
      </div>
      <div class="field">
        <label for="users-role">${t.role}</label>
        <select id="users-role" name="role">${option('', t.any, filter.role)}${option('user', t.roleValue.user, filter.role)}${option('admin', t.roleValue.admin, filter.role)}</select>
      </div>
      <div class="field checkbox">
        <input id="users-deleted" name="deleted" type="checkbox" value="include"${filter.includeDeleted ? html` checked` : ''}>
        <label for="users-deleted">${t.includeDeleted}</label>
      </div>
      <div class="actions">
        <button type="submit" class="primary">${t.apply}</button>
        <a class="button secondary" href="${pageHref(context, '/admin/users')}">${t.reset}</a>
      </div>
    </form>`;
  const rows = page.users.map((user) => renderUserRow(context, user));
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
  const count =
    page.total === 1 ? t.countOne : formatMessage(t.count, { count: page.total.toLocaleString(context.locale) });
  const link = (target: number, label: string, rel: string) =>
    html`<a class="button secondary" rel="${rel}" href="${pageHref(context, '/admin/users', usersQuery(filter, target))}">${label}</a>`;
  const body = html`        <h1>${t.heading}</h1>
${filters}
        <section class="panel" aria-labelledby="users-count">
          <h2 id="users-count">${count}</h2>${
            page.users.length === 0
              ? html`
          <p>${t.none}</p>`
              : html`
          <table class="console-table" id="users-table">
            <thead><tr><th scope="col">${t.email}</th><th scope="col">${t.role}</th><th scope="col">${t.managedBy}</th><th scope="col">${t.status}</th></tr></thead>
            <tbody>${rows}</tbody>
          </table>`
          }
          <nav class="pager" aria-label="${t.pagination}">
            <p>${formatMessage(t.pageOf, { page: filter.page, pages })}</p>
            <div class="links">${filter.page > 1 && link(filter.page - 1, t.previous, 'prev')}${filter.page < pages && link(filter.page + 1, t.next, 'next')}</div>
          </nav>
        </section>`;
  return renderConsolePage(context, request, { section: 'users', task: t.task, body });
}

function renderUserRow(context: PageContext, user: ConsoleUser): SafeHtml {
  const t = context.text.admin.users;
  const flags = [
    user.emailVerified
      ? html`<li class="tag">${t.flags.verified}</li>`
      : html`<li class="tag">${t.flags.unverified}</li>`,
    (user.totpRegistered || user.passkeyCount > 0) && html`<li class="tag">${t.flags.secondFactor}</li>`,
    user.deletedAt !== null && html`<li class="tag warn">${t.flags.deleted}</li>`,
  ];
  return html`
              <tr>
                <td data-label="${t.email}"><a href="${pageHref(context, `/admin/users/${encodeURIComponent(user.sub)}`)}">${user.email}</a><br><span class="mono">${user.sub}</span></td>
                <td data-label="${t.role}">${t.roleValue[user.role]}</td>
                <td data-label="${t.managedBy}">${t.managedByValue[user.managedBy]}</td>
                <td data-label="${t.status}"><ul class="tags">${flags}</ul></td>
              </tr>`;
}
