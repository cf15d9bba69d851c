import { formatMessage } from '../../../i18n/index.js';
import type { ConsoleUserDetail } from './console-views.js';
import { html, type SafeHtml } from '../html.js';
import { pageHref, type PageContext } from '../page-context.js';
import {
  csrfField,
  formatMoment,
  renderConsolePage,
  type ConsolePageParts,
  type ConsoleRequest,
} from './console-layout.js';

/** The destructive actions, which a confirmation page posts (never the user's page itself). */
export const confirmedActions = ['delete', 'reset-factors', 'group-remove'] as const;
export type ConfirmedAction = (typeof confirmedActions)[number];

/** Where a user's page and its forms are. */
export function userPath(sub: string, action?: string): string {
  const base = `/admin/users/${encodeURIComponent(sub)}`;
  return action ? `${base}/${action}` : base;
}

export interface UserPageOutcome {
  notice?: string | null;
  error?: ConsolePageParts['error'];
}

/**
 * /admin/users/{sub}: the SPEC 2.1 fields, the groups with their sources,
 * the connected providers, the recent events, and the actions. A
 * database-managed live user can be edited, put into and taken out of
 * groups (memberships an admin added), and deleted; a deleted one restored
 * within the grace period. A config-managed user is read-only ("Declared in
 * the config file"). Unlocking and resetting second factors are offered for
 * every user, as the admin API allows: sign-in attempts and personal
 * credentials are the user's own on any account. Destructive actions link
 * to a confirmation page; every action is a form, no script.
 */
export function renderConsoleUserPage(
  context: PageContext,
  request: ConsoleRequest,
  detail: ConsoleUserDetail,
  outcome: UserPageOutcome = {},
): string {
  const t = context.text.admin.user;
  const { user } = detail;
  const editable = user.managedBy === 'database' && user.deletedAt === null;
  const self = user.sub === request.adminSub;
  const yesNo = (value: boolean) => (value ? t.yes : t.no);
  const facts: [string, SafeHtml | string][] = [
    [t.sub, html`<span class="mono">${user.sub}</span>`],
    [t.email, user.email],
    [t.emailVerified, yesNo(user.emailVerified)],
    [t.role, context.text.admin.users.roleValue[user.role]],
    [t.managedBy, context.text.admin.users.managedByValue[user.managedBy]],
    [t.hasPassword, yesNo(user.hasPassword)],
    [t.totp, yesNo(user.totpRegistered)],
    [t.passkeys, String(user.passkeyCount)],
    [t.secondFactorRequired, yesNo(user.secondFactorRequired)],
    [t.deletedAt, user.deletedAt === null ? t.no : formatMoment(context, user.deletedAt)],
  ];
  const body = html`        <p><a href="${pageHref(context, '/admin/users')}">← ${t.back}</a></p>
        <h1>${user.email}</h1>${renderStatusNote(context, request, detail)}
        <section class="panel" aria-labelledby="user-details">
          <h2 id="user-details">${t.details}</h2>
          <dl class="facts">${facts.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl>
        </section>${editable && renderEditForm(context, request, detail, self)}
${renderGroups(context, request, detail, editable)}
        <section class="panel" aria-labelledby="user-connections">
          <h2 id="user-connections">${t.connections}</h2>${
            detail.connections.length === 0
              ? html`
          <p>${t.noConnections}</p>`
              : html`
          <ul class="list-plain">${detail.connections.map(
            (c) =>
              html`<li><span>${c.displayName}${c.email && html` · ${c.email}`}</span><span class="hint">${formatMoment(context, c.linkedAt)}</span></li>`,
          )}</ul>`
          }
        </section>
${renderActions(context, request, detail, editable && !self)}
${renderEvents(context, detail)}`;
  return renderConsolePage(context, request, {
    section: 'users',
    task: formatMessage(t.task, { email: user.email }),
    body,
    notice: outcome.notice,
    error: outcome.error,
  });
}

function renderStatusNote(context: PageContext, request: ConsoleRequest, detail: ConsoleUserDetail): SafeHtml {
  const t = context.text.admin.user;
  const { user } = detail;
  if (user.managedBy === 'config')
    return html`
        <p class="notice" id="declared">${t.declared}</p>`;
  if (user.deletedAt === null) return html``;
  const date = formatMoment(context, user.deletedAt);
  if (detail.restorableUntil === null)
    return html`
        <p class="notice">${formatMessage(t.deletedNoRestore, { date })}</p>`;
  return html`
        <form class="notice inline-form" method="post" action="${userPath(user.sub, 'restore')}">${csrfField(request)}
          <p>${formatMessage(t.deletedNotice, { date, until: formatMoment(context, detail.restorableUntil) })}</p>
          <button type="submit" class="secondary">${t.restore}</button>
        </form>`;
}

function renderEditForm(
  context: PageContext,
  request: ConsoleRequest,
  detail: ConsoleUserDetail,
  self: boolean,
): SafeHtml {
  const t = context.text.admin.user;
  const roles = context.text.admin.users.roleValue;
  const { user } = detail;
  const option = (role: 'user' | 'admin') =>
    html`<option value="${role}"${user.role === role ? html` selected` : ''}>${roles[role]}</option>`;
  return html`
        <section class="panel" aria-labelledby="user-edit">
          <h2 id="user-edit">${t.edit}</h2>
          <form class="form" method="post" action="${userPath(user.sub, 'edit')}">${csrfField(request)}
            <div class="field">
              <label for="edit-email">${t.email}</label>
              <input id="edit-email" name="email" type="email" required maxlength="320" autocomplete="off" value="${user.email}">
            </div>
            <div class="field">
              <label for="edit-role">${t.role}</label>
              <select id="edit-role" name="role"${self ? html` disabled` : ''}>${option('user')}${option('admin')}</select>
            </div>
            <div class="field checkbox">
              <input id="edit-verified" name="email_verified" type="checkbox" value="true"${user.emailVerified ? html` checked` : ''}>
              <label for="edit-verified">${t.emailVerified}</label>
            </div>
            <div class="actions"><button type="submit" class="primary">${t.save}</button></div>
          </form>
        </section>`;
}

function renderGroups(
  context: PageContext,
  request: ConsoleRequest,
  detail: ConsoleUserDetail,
  editable: boolean,
): SafeHtml {
  const t = context.text.admin.user;
  const { user } = detail;
  const names = new Map(detail.allGroups.map((g) => [g.id, g.name]));
  const byGroup = new Map<string, { name: string; sources: string[] }>();
  for (const membership of detail.groups) {
    const entry = byGroup.get(membership.id) ?? { name: membership.name, sources: [] };
    entry.sources.push(membership.source);
    byGroup.set(membership.id, entry);
  }
  const items = [...byGroup.entries()].map(([id, entry]) => {
    const removable = editable && entry.sources.includes('database');
    const removeHref = pageHref(context, userPath(user.sub, 'confirm'), { action: 'group-remove', group: id });
    return html`<li><span>${entry.name} <ul class="tags">${entry.sources.map((source) => html`<li class="tag">${t.source[source as 'config' | 'database' | 'upstream']}</li>`)}</ul></span>${
      removable &&
      html`<a class="button secondary" href="${removeHref}" aria-label="${formatMessage(t.removeFrom, { group: entry.name })}">${t.remove}</a>`
    }</li>`;
  });
  const addable = detail.allGroups.filter((g) => !detail.groups.some((m) => m.id === g.id && m.source === 'database'));
  if (detail.allGroups.length === 0 && items.length === 0) return html``;
  return html`        <section class="panel" aria-labelledby="user-groups">
          <h2 id="user-groups">${t.groups}</h2>${
            items.length === 0
              ? html`
          <p>${t.noGroups}</p>`
              : html`
          <ul class="list-plain" id="user-group-list">${items}</ul>`
          }${
            editable &&
            addable.length > 0 &&
            html`
          <form class="inline-form form" method="post" action="${userPath(user.sub, 'group-add')}">${csrfField(request)}
            <div class="field">
              <label for="add-group">${t.addToGroup}</label>
              <select id="add-group" name="group">${addable.map((g) => html`<option value="${g.id}">${names.get(g.id) ?? g.id}</option>`)}</select>
            </div>
            <button type="submit" class="secondary">${t.add}</button>
          </form>`
          }
        </section>`;
}

function renderActions(
  context: PageContext,
  request: ConsoleRequest,
  detail: ConsoleUserDetail,
  deletable: boolean,
): SafeHtml {
  const t = context.text.admin.user;
  const { user } = detail;
  const confirmHref = (action: ConfirmedAction) => pageHref(context, userPath(user.sub, 'confirm'), { action });
  return html`        <section class="panel" aria-labelledby="user-actions">
          <h2 id="user-actions">${t.actions}</h2>
          <div class="console-actions">
            <form method="post" action="${userPath(user.sub, 'unlock')}">${csrfField(request)}
              <button type="submit" class="secondary" aria-describedby="unlock-hint">${t.unlock}</button>
              <p class="hint" id="unlock-hint">${t.unlockHint}</p>
            </form>
            <div>
              <a class="button secondary" href="${confirmHref('reset-factors')}" aria-describedby="reset-hint">${t.resetFactors}</a>
              <p class="hint" id="reset-hint">${t.resetFactorsHint}</p>
            </div>${
              deletable &&
              html`
            <div>
              <a class="button danger-outline" href="${confirmHref('delete')}" aria-describedby="delete-hint">${t.delete}</a>
              <p class="hint" id="delete-hint">${t.deleteHint}</p>
            </div>`
            }
          </div>
        </section>`;
}

function renderEvents(context: PageContext, detail: ConsoleUserDetail): SafeHtml {
  const t = context.text.admin.user;
  const eventsHref = pageHref(context, '/admin/events', { subject: detail.user.sub });
  return html`        <section class="panel" aria-labelledby="user-events">
          <h2 id="user-events">${t.events}</h2>${
            detail.events.length === 0
              ? html`
          <p>${t.noEvents}</p>`
              : html`
          <ul class="list-plain" id="user-event-list">${detail.events.map(
            (event) =>
              html`<li><span class="mono">${event.type}</span><span class="hint">${formatMoment(context, event.time)}</span></li>`,
          )}</ul>`
          }
          <p><a href="${eventsHref}">${t.allEvents}</a></p>
        </section>`;
}

/** The confirmation of a destructive action: what it does, and a form that posts it. */
export function renderConsoleConfirmPage(
  context: PageContext,
  request: ConsoleRequest,
  page: { sub: string; email: string; action: ConfirmedAction; group: { id: string; name: string } | null },
): string {
  const t = context.text.admin.confirm;
  const text = t[page.action];
  const values = { email: page.email, group: page.group?.name ?? '' };
  const body = html`        <section class="panel confirm-panel" aria-labelledby="confirm-heading">
          <h1 id="confirm-heading">${formatMessage(text.heading, values)}</h1>
          <p>${text.body}</p>
          <form class="actions" method="post" action="${userPath(page.sub, page.action)}">${csrfField(request)}${
            page.group && html`<input type="hidden" name="group" value="${page.group.id}">`
          }
            <button type="submit" class="danger">${text.button}</button>
            <a class="button secondary" href="${pageHref(context, userPath(page.sub))}">${t.cancel}</a>
          </form>
        </section>`;
  return renderConsolePage(context, request, {
    section: 'users',
    task: formatMessage(text.heading, values),
    body,
  });
}

/** A user's page without the user (an unknown sub): the reason, and the way back to the list. */
export function renderConsoleUserMissingPage(
  context: PageContext,
  request: ConsoleRequest,
  error: NonNullable<ConsolePageParts['error']>,
): string {
  const body = html`        <p><a href="${pageHref(context, '/admin/users')}">← ${context.text.admin.user.back}</a></p>`;
  return renderConsolePage(context, request, { section: 'users', task: context.text.admin.users.task, body, error });
}
