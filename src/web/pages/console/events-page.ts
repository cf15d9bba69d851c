import { formatMessage } from '../../../i18n/index.js';
import { eventTypes } from '../../../model/events.js';
import type { EventRecord, EventType } from '../../../model/index.js';
import { html, type SafeHtml } from '../html.js';
import { pageHref, type PageContext } from '../page-context.js';
import { formatMoment, renderConsolePage, type ConsoleRequest } from './console-layout.js';

export interface EventsFilter {
  type: EventType | null;
  actor: string;
  subject: string;
  /** `YYYY-MM-DDTHH:MM` in UTC, as a datetime-local field sends it. */
  since: string;
  until: string;
  page: number;
}

export interface EventsPage {
  filter: EventsFilter;
  pageSize: number;
  events: EventRecord[];
  total: number;
}

/** The filter as the list's query string (only what differs from the defaults), for the pager's links. */
export function eventsQuery(filter: EventsFilter, page: number): Record<string, string | null> {
  return {
    type: filter.type,
    actor: filter.actor || null,
    subject: filter.subject || null,
    since: filter.since || null,
    until: filter.until || null,
    page: page > 1 ? String(page) : null,
  };
}

/**
 * /admin/events: the audit log, newest first, with filters as a GET form and
 * pages. On the first page without an upper time bound, console-events.js
 * offers to follow: it polls GET /api/admin/events with the same filters and
 * puts new events on top. Without a script the page is a plain list.
 */
export function renderConsoleEventsPage(context: PageContext, request: ConsoleRequest, page: EventsPage): string {
  const t = context.text.admin.events;
  const { filter } = page;
  const typeOptions = eventTypes.map(
    (type) => html`<option value="${type}"${filter.type === type ? html` selected` : ''}>${type}</option>`,
  );
  const field = (name: 'actor' | 'subject' | 'since' | 'until', label: string, hint: string, type: string) =>
    html`
      <div class="field">
        <label for="events-${name}">${label}</label>
        <input id="events-${name}" name="${name}" type="${type}" value="${filter[name]}" aria-describedby="events-${name}-hint" maxlength="255">
        <p class="hint" id="events-${name}-hint">${hint}</p>
      </div>`;
  const filters = html`    <form class="console-filters panel" method="get" action="/admin/events" role="search">${
    context.chosenLocale && html`<input type="hidden" name="locale" value="${context.chosenLocale}">`
  }
      <div class="field">
        <label for="events-type">${t.type}</label>
        <select id="events-type" name="type"><option value="">${t.anyType}</option>${typeOptions}</select>
      </div>${field('actor', t.actor, t.actorHint, 'text')}${field('subject', t.subject, t.subjectHint, 'text')}${field('since', t.since, t.timeHint, 'datetime-local')}${field('until', t.until, t.timeHint, 'datetime-local')}
      <div class="actions">
        <button type="submit" class="primary">${t.apply}</button>
        <a class="button secondary" href="${pageHref(context, '/admin/events')}">${t.reset}</a>
      </div>
    </form>`;
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
  const count =
    page.total === 1 ? t.countOne : formatMessage(t.count, { count: page.total.toLocaleString(context.locale) });
  const link = (target: number, label: string, rel: string) =>
    html`<a class="button secondary" rel="${rel}" href="${pageHref(context, '/admin/events', eventsQuery(filter, target))}">${label}</a>`;
  const followable = filter.page === 1 && filter.until === '';
  const body = html`        <h1>${t.heading}</h1>
${filters}
        <section class="panel" aria-labelledby="events-count">
          <h2 id="events-count">${count}</h2>${
            followable &&
            html`
          <div class="stack" id="events-follow" hidden>
            <button type="button" class="secondary" id="events-follow-button" aria-pressed="false">${t.follow}</button>
            <p id="events-follow-status" role="status"></p>
          </div>`
          }
          <p id="events-none"${page.events.length === 0 ? '' : html` hidden`}>${t.none}</p>
          <table class="console-table" id="events-table"${page.events.length === 0 ? html` hidden` : ''}>
            <thead><tr><th scope="col">${t.time}</th><th scope="col">${t.type}</th><th scope="col">${t.actor}</th><th scope="col">${t.subject}</th><th scope="col">${t.detail}</th></tr></thead>
            <tbody>${page.events.map((event) => renderEventRow(context, event))}</tbody>
          </table>
          <nav class="pager" aria-label="${t.pagination}">
            <p>${formatMessage(t.pageOf, { page: filter.page, pages })}</p>
            <div class="links">${filter.page > 1 && link(filter.page - 1, t.previous, 'prev')}${filter.page < pages && link(filter.page + 1, t.next, 'next')}</div>
          </nav>
        </section>`;
  return renderConsolePage(context, request, {
    section: 'events',
    task: t.task,
    body,
    script: followable ? 'console-events.js' : undefined,
    data: followable
      ? {
          events: {
            query: { type: filter.type, actor: filter.actor || null, subject: filter.subject || null },
            locale: context.locale,
            labels: { time: t.time, type: t.type, actor: t.actor, subject: t.subject, detail: t.detail },
            following: t.following,
            failed: t.followFailed,
            newEvents: t.newEvents,
            newEventsOne: t.newEventsOne,
          },
        }
      : undefined,
  });
}

/** One event's row; the script builds the same cells for new events (src/web/public/ui/console-events.js). */
function renderEventRow(context: PageContext, event: EventRecord): SafeHtml {
  const t = context.text.admin.events;
  return html`
              <tr data-event-id="${String(event.id)}">
                <td data-label="${t.time}"><time datetime="${new Date(event.time).toISOString()}">${formatMoment(context, event.time)}</time></td>
                <td data-label="${t.type}" class="mono">${event.type}</td>
                <td data-label="${t.actor}" class="mono">${event.actor}</td>
                <td data-label="${t.subject}" class="mono">${event.subject ?? ''}</td>
                <td data-label="${t.detail}" class="mono event-detail">${JSON.stringify(event.detail)}</td>
              </tr>`;
}
