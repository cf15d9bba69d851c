import { formatMessage } from '../../../i18n/index.js';
import type { ConsoleGroupSummary, ConsoleUser } from './console-views.js';
import type { GroupRecord, UpstreamGroupRule } from '../../../model/index.js';
import { html, type SafeHtml } from '../html.js';
import { pageHref, type PageContext } from '../page-context.js';
import { renderConsolePage, type ConsoleRequest } from './console-layout.js';

export interface GroupPage {
  group: GroupRecord;
  members: ConsoleUser[];
  total: number;
  page: number;
  pageSize: number;
}

const groupPath = (id: string) => `/admin/groups/${encodeURIComponent(id)}`;

/** /admin/groups: every declared group with its live member count (members from every source counted once). */
export function renderConsoleGroupsPage(
  context: PageContext,
  request: ConsoleRequest,
  groups: ConsoleGroupSummary[],
): string {
  const t = context.text.admin.groups;
  const rows = groups.map(
    (group) => html`
              <tr>
                <td data-label="${t.name}"><a href="${pageHref(context, groupPath(group.id))}">${group.name}</a><br><span class="mono">${group.id}</span></td>
                <td data-label="${t.description}">${group.description ?? ''}</td>
                <td data-label="${t.members}">${group.memberCount.toLocaleString(context.locale)}</td>
              </tr>`,
  );
  const body = html`        <h1>${t.heading}</h1>
        <p>${t.intro}</p>
        <section class="panel">${
          groups.length === 0
            ? html`
          <p>${t.none}</p>`
            : html`
          <table class="console-table" id="groups-table">
            <thead><tr><th scope="col">${t.name}</th><th scope="col">${t.description}</th><th scope="col">${t.members}</th></tr></thead>
            <tbody>${rows}</tbody>
          </table>`
        }
        </section>`;
  return renderConsolePage(context, request, { section: 'groups', task: t.task, body });
}

function upstreamRule(context: PageContext, rule: UpstreamGroupRule): string {
  const t = context.text.admin.group;
  return 'team' in rule
    ? formatMessage(t.upstreamTeam, { provider: rule.provider, team: rule.team })
    : formatMessage(t.upstreamClaim, { provider: rule.provider, claim: rule.claim, value: rule.value });
}

/**
 * /admin/groups/{id}: the group as declared (upstream rules included) and one
 * page of its live members, each linking to the user's page.
 */
export function renderConsoleGroupPage(context: PageContext, request: ConsoleRequest, page: GroupPage): string {
  const t = context.text.admin.group;
  const tg = context.text.admin.groups;
  const tu = context.text.admin.users;
  const { group } = page;
  const rules: SafeHtml[] = group.upstream.map((rule) => html`<li>${upstreamRule(context, rule)}</li>`);
  const members = page.members.map(
    (user) => html`
              <tr>
                <td data-label="${tu.email}"><a href="${pageHref(context, `/admin/users/${encodeURIComponent(user.sub)}`)}">${user.email}</a><br><span class="mono">${user.sub}</span></td>
                <td data-label="${tu.role}">${tu.roleValue[user.role]}</td>
                <td data-label="${tu.managedBy}">${tu.managedByValue[user.managedBy]}</td>
              </tr>`,
  );
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
  const link = (target: number, label: string, rel: string) =>
    html`<a class="button secondary" rel="${rel}" href="${pageHref(context, groupPath(group.id), { page: target > 1 ? String(target) : null })}">${label}</a>`;
  const count =
    page.total === 1
      ? t.memberCountOne
      : formatMessage(t.memberCount, { count: page.total.toLocaleString(context.locale) });
  const body = html`        <p><a href="${pageHref(context, '/admin/groups')}">${t.back}</a></p>
        <h1>${group.name}</h1>
        <p>${tg.intro}</p>
        <section class="panel" aria-labelledby="group-details">
          <h2 id="group-details">${t.details}</h2>
          <dl class="facts">
            <dt>${tg.id}</dt><dd class="mono">${group.id}</dd>
            <dt>${tg.description}</dt><dd>${group.description ?? ''}</dd>
            <dt>${tg.upstream}</dt><dd>${rules.length === 0 ? t.upstreamNone : html`<ul class="list-plain">${rules}</ul>`}</dd>
          </dl>
        </section>
        <section class="panel" aria-labelledby="group-members">
          <h2 id="group-members">${count}</h2>${
            page.members.length === 0
              ? html`
          <p>${t.none}</p>`
              : html`
          <table class="console-table" id="members-table">
            <thead><tr><th scope="col">${tu.email}</th><th scope="col">${tu.role}</th><th scope="col">${tu.managedBy}</th></tr></thead>
            <tbody>${members}</tbody>
          </table>`
          }
          <nav class="pager" aria-label="${tu.pagination}">
            <p>${formatMessage(tu.pageOf, { page: page.page, pages })}</p>
            <div class="links">${page.page > 1 && link(page.page - 1, tu.previous, 'prev')}${page.page < pages && link(page.page + 1, tu.next, 'next')}</div>
          </nav>
        </section>`;
  return renderConsolePage(context, request, {
    section: 'groups',
    task: formatMessage(t.task, { name: group.name }),
    body,
  });
}

/** The group page's 404: the group is not declared (any more). */
export function renderConsoleMissingPage(
  context: PageContext,
  request: ConsoleRequest,
  section: 'groups' | 'clients',
  error: { code: string; message: string },
): string {
  const back = section === 'groups' ? context.text.admin.group.back : context.text.admin.client.back;
  const body = html`        <p><a href="${pageHref(context, `/admin/${section}`)}">${back}</a></p>`;
  return renderConsolePage(context, request, { section, task: context.text.admin.nav[section], body, error });
}
