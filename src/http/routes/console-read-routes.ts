import type { Request } from '@hapi/hapi';
import { ApiError } from '../../api-error.js';
import { eventTypes } from '../../model/events.js';
import type { EventType } from '../../model/index.js';
import { consoleRoute } from '../console-access.js';
import { pageResponse } from '../page-context.js';
import {
  consoleClientView,
  consoleErrorSentence,
  renderConsoleClientPage,
  renderConsoleClientsPage,
  renderConsoleEventsPage,
  renderConsoleGroupPage,
  renderConsoleGroupsPage,
  renderConsoleMissingPage,
  renderConsoleTermsPage,
  stringParam,
  type EventsFilter,
} from '../../web/index.js';

/** Rows per page of the console's group members and events. */
export const consoleMembersPageSize = 25;
export const consoleEventsPageSize = 50;

const pageOf = (request: Request) => {
  const page = Number(stringParam(request.query.page) ?? '1');
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
};

/** GET /admin/groups: the declared groups with their member counts (AdminGroupsService.list). */
export const consoleGroupsRoute = consoleRoute('The console: groups', async (deps, _request, h, call) =>
  pageResponse(h, renderConsoleGroupsPage(call.context, call.console, await deps.admin.groups.list(call.admin))),
);

/** GET /admin/groups/{id}: the group and one page of its members; 404 page for a group not declared. */
export const consoleGroupRoute = consoleRoute('The console: a group', async (deps, request, h, call) => {
  const { id } = request.params as { id: string };
  const page = pageOf(request);
  try {
    const group = await deps.admin.groups.find(call.admin, id);
    const members = await deps.admin.groups.members(call.admin, id, { page, pageSize: consoleMembersPageSize });
    const view = { group, members: members.users, total: members.total, page, pageSize: consoleMembersPageSize };
    return pageResponse(h, renderConsoleGroupPage(call.context, call.console, view));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const shown = { code: error.code, message: consoleErrorSentence(call.context, error.code) };
    return pageResponse(h, renderConsoleMissingPage(call.context, call.console, 'groups', shown), error.status);
  }
});

/** GET /admin/clients: the config file's clients, as loaded. */
export const consoleClientsRoute = consoleRoute('The console: clients', (deps, _request, h, call) =>
  pageResponse(h, renderConsoleClientsPage(call.context, call.console, deps.config.clients.map(consoleClientView))),
);

/** GET /admin/clients/{client_id}: one client; 404 page for an unknown id. */
export const consoleClientRoute = consoleRoute('The console: a client', (deps, request, h, call) => {
  const { client_id: clientId } = request.params as { client_id: string };
  const client = deps.config.clients.find((candidate) => candidate.clientId === clientId);
  if (client) return pageResponse(h, renderConsoleClientPage(call.context, call.console, consoleClientView(client)));
  const shown = { code: 'CLIENT_NOT_FOUND', message: call.context.text.admin.client.missing };
  return pageResponse(h, renderConsoleMissingPage(call.context, call.console, 'clients', shown), 404);
});

/** GET /admin/terms: each term's current version with its acceptance counts (what GET /api/admin/terms answers). */
export const consoleTermsRoute = consoleRoute('The console: terms', async (deps, _request, h, call) =>
  pageResponse(h, renderConsoleTermsPage(call.context, call.console, await deps.accounts.userTerms.status())),
);

const minute = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
/** A datetime-local value read as UTC; anything else is no bound (a hand-edited address is no error). */
const timeOf = (value: string | null): { text: string; time: number | undefined } => {
  if (value === null || !minute.test(value)) return { text: '', time: undefined };
  const time = Date.parse(`${value}:00Z`);
  return Number.isNaN(time) ? { text: '', time: undefined } : { text: value, time };
};
const isEventType = (value: string | null): value is EventType => eventTypes.some((type) => type === value);

/** GET /admin/events: one page of the audit log through the admin API's service (AdminEventsService.list). */
export const consoleEventsRoute = consoleRoute('The console: events', async (deps, request, h, call) => {
  const type = stringParam(request.query.type);
  const since = timeOf(stringParam(request.query.since));
  const until = timeOf(stringParam(request.query.until));
  const filter: EventsFilter = {
    type: isEventType(type) ? type : null,
    actor: (stringParam(request.query.actor) ?? '').trim().slice(0, 255),
    subject: (stringParam(request.query.subject) ?? '').trim().slice(0, 255),
    since: since.text,
    until: until.text,
    page: pageOf(request),
  };
  const result = await deps.admin.events.list({
    type: filter.type ?? undefined,
    actor: filter.actor || undefined,
    subject: filter.subject || undefined,
    since: since.time,
    until: until.time,
    page: filter.page,
    pageSize: consoleEventsPageSize,
  });
  const page = { filter, pageSize: consoleEventsPageSize, events: result.events, total: result.total };
  return pageResponse(h, renderConsoleEventsPage(call.context, call.console, page));
});
