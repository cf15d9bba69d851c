import type { Request } from '@hapi/hapi';
import { consoleRoute } from '../console-access.js';
import { pageResponse } from '../page-context.js';
import { renderConsoleUsersPage, stringParam, type UsersFilter } from '../../web/index.js';

/** Rows per page of the console's users list. */
export const consoleUsersPageSize = 25;

/** The list's filter from the address; anything unknown is the default (a hand-edited address is no error). */
function usersFilterOf(request: Request): UsersFilter {
  const managedBy = stringParam(request.query.managed_by);
  const role = stringParam(request.query.role);
  const page = Number(stringParam(request.query.page) ?? '1');
  return {
    query: (stringParam(request.query.q) ?? '').trim().slice(0, 320),
    managedBy: managedBy === 'database' || managedBy === 'config' ? managedBy : null,
    role: role === 'user' || role === 'admin' ? role : null,
    includeDeleted: request.query.deleted === 'include',
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** GET /admin/users: one page of users through the admin API's service (AdminUsersService.list). */
export const consoleUsersRoute = consoleRoute('The console: users', async (deps, request, h, call) => {
  const filter = usersFilterOf(request);
  const result = await deps.admin.users.list(call.admin, {
    query: filter.query || undefined,
    page: filter.page,
    pageSize: consoleUsersPageSize,
    includeDeleted: filter.includeDeleted,
    managedBy: filter.managedBy ?? undefined,
    role: filter.role ?? undefined,
  });
  const page = { filter, pageSize: consoleUsersPageSize, users: result.users, total: result.total };
  return pageResponse(h, renderConsoleUsersPage(call.context, call.console, page));
});

/** GET /admin: the Overview. */
export const consoleHomeRoute = consoleRoute('The console', (_deps, _request, h, call) =>
  h.redirect(`/admin/users${call.context.chosenLocale ? `?locale=${call.context.chosenLocale}` : ''}`).code(302),
);
