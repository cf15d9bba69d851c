import type { Request, ResponseToolkit } from '@hapi/hapi';
import { ApiError } from '../../api-error.js';
import { afterAction, consoleRoute, formField, type ConsoleCall } from '../console-access.js';
import { addressOf } from '../client-address.js';
import type { HttpDeps } from '../http-deps.js';
import { pageResponse } from '../page-context.js';
import { emailSchema } from '../schemas/user-schemas.js';
import {
  confirmedActions,
  consoleErrorSentence,
  renderConsoleConfirmPage,
  renderConsoleOverviewPage,
  renderConsoleUserMissingPage,
  renderConsoleUserPage,
  renderConsoleUsersPage,
  stringParam,
  userPath,
  type ConfirmedAction,
  type UsersFilter,
} from '../../web/index.js';

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

/** GET /admin: the Overview (AdminOverviewService). */
export const consoleHomeRoute = consoleRoute('The console: overview', async (deps, _request, h, call) =>
  pageResponse(
    h,
    renderConsoleOverviewPage(call.context, call.console, await deps.admin.overview.overview(call.admin)),
  ),
);

const subOf = (request: Request) => (request.params as { sub: string }).sub;

/** An error of an admin service on the console: the code's sentence, on the user's page when there still is one. */
async function refusedPage(deps: HttpDeps, h: ResponseToolkit, call: ConsoleCall, sub: string, error: ApiError) {
  const shown = { code: error.code, message: consoleErrorSentence(call.context, error.code) };
  try {
    const detail = await deps.admin.userDetails.describe(call.admin, sub);
    return pageResponse(h, renderConsoleUserPage(call.context, call.console, detail, { error: shown }), error.status);
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
    const shownFailure = { code: failure.code, message: consoleErrorSentence(call.context, failure.code) };
    return pageResponse(h, renderConsoleUserMissingPage(call.context, call.console, shownFailure), failure.status);
  }
}

/** GET /admin/users/{sub}: the user's page (AdminUserDetails), with the outcome of the action that led here. */
export const consoleUserRoute = consoleRoute('The console: a user', async (deps, request, h, call) => {
  const sub = subOf(request);
  const done = stringParam(request.query.done);
  const notices: Readonly<Record<string, string>> = call.context.text.admin.user.done;
  try {
    const detail = await deps.admin.userDetails.describe(call.admin, sub);
    const notice = done !== null && Object.hasOwn(notices, done) ? notices[done] : null;
    return pageResponse(h, renderConsoleUserPage(call.context, call.console, detail, { notice }));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return refusedPage(deps, h, call, sub, error);
  }
});

const isConfirmedAction = (value: string | null): value is ConfirmedAction =>
  (confirmedActions as readonly (string | null)[]).includes(value);

/** GET /admin/users/{sub}/confirm?action=…: the question before a destructive action, whose form posts it. */
export const consoleUserConfirmRoute = consoleRoute(
  'The console: confirm an action',
  async (deps, request, h, call) => {
    const sub = subOf(request);
    const action = stringParam(request.query.action);
    if (!isConfirmedAction(action)) return afterAction(h, call.context, userPath(sub), {});
    try {
      const detail = await deps.admin.userDetails.describe(call.admin, sub);
      let group: { id: string; name: string } | null = null;
      if (action === 'group-remove') {
        const id = stringParam(request.query.group);
        const found = detail.groups.find((membership) => membership.id === id && membership.source === 'database');
        if (!found) return afterAction(h, call.context, userPath(sub), {});
        group = { id: found.id, name: found.name };
      }
      const page = { sub, email: detail.user.email, action, group };
      return pageResponse(h, renderConsoleConfirmPage(call.context, call.console, page));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return refusedPage(deps, h, call, sub, error);
    }
  },
);

type UserAction = (deps: HttpDeps, request: Request, call: ConsoleCall, sub: string) => Promise<string>;

const invalidEmail = () => new ApiError(400, 'INVALID_EMAIL', 'Enter a valid e-mail address.');

/**
 * The actions of a user's page, each one call of an admin service; the
 * value is the `done` the user's page then shows. Unknown actions are 404.
 */
const userActions: Readonly<Record<string, UserAction>> = {
  async edit(deps, request, call, sub) {
    const email = emailSchema.validate(formField(request, 'email') ?? '');
    if (email.error) throw invalidEmail();
    const role = formField(request, 'role');
    await deps.admin.users.update(
      call.admin,
      sub,
      {
        email: email.value,
        // A disabled select (the admin's own role) sends nothing: the role stays.
        role: role === 'user' || role === 'admin' ? role : undefined,
        emailVerified: formField(request, 'email_verified') === 'true',
      },
      { clientAddress: addressOf(request) },
    );
    return 'updated';
  },
  async delete(deps, request, call, sub) {
    await deps.admin.users.delete(call.admin, sub, { clientAddress: addressOf(request) });
    return 'deleted';
  },
  async restore(deps, request, call, sub) {
    await deps.admin.users.restore(call.admin, sub, { clientAddress: addressOf(request) });
    return 'restored';
  },
  async unlock(deps, _request, call, sub) {
    await deps.admin.unlock.unlock(call.admin, sub);
    return 'unlocked';
  },
  async 'reset-factors'(deps, request, call, sub) {
    await deps.admin.users.resetSecondFactors(call.admin, sub, { clientAddress: addressOf(request) });
    return 'factors-reset';
  },
  async 'group-add'(deps, request, call, sub) {
    await deps.admin.groups.addMember(call.admin, formField(request, 'group') ?? '', sub, {
      clientAddress: addressOf(request),
    });
    return 'group-added';
  },
  async 'group-remove'(deps, request, call, sub) {
    await deps.admin.groups.removeMember(call.admin, formField(request, 'group') ?? '', sub, {
      clientAddress: addressOf(request),
    });
    return 'group-removed';
  },
};

/**
 * POST /admin/users/{sub}/{action}: one action, then back to the user's
 * page with its outcome (303); a refusal shows the user's page with the
 * reason in the page's language and the service's status.
 */
export const consoleUserActionRoute = consoleRoute(
  'The console: an action on a user',
  async (deps, request, h, call) => {
    const sub = subOf(request);
    const name = (request.params as { action: string }).action;
    const action = Object.hasOwn(userActions, name) ? userActions[name] : undefined;
    if (!action)
      return refusedPage(deps, h, call, sub, new ApiError(404, 'NOT_FOUND', 'The requested resource was not found.'));
    try {
      const done = await action(deps, request, call, sub);
      return afterAction(h, call.context, userPath(sub), { done });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return refusedPage(deps, h, call, sub, error);
    }
  },
);
