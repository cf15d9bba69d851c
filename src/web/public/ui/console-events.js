// @ts-check
import { callApi, pageData } from './api.js';

/**
 * The follow mode of the console's events page (src/web/pages/console/events-page.ts):
 * every few seconds it asks GET /api/admin/events for the first page with the
 * page's filters and puts the events it has not shown yet on top of the
 * table. Compared by id, not by "id above the newest": on PostgreSQL a lower
 * id can commit after a higher one. Cells are written with textContent.
 */
const data = pageData().events;
const box = document.getElementById('events-follow');
const button = document.getElementById('events-follow-button');
const status = document.getElementById('events-follow-status');
const table = /** @type {HTMLTableElement | null} */ (document.getElementById('events-table'));
const pollMs = 2000;

if (data && box && button && status && table) {
  const body = table.tBodies[0];
  /** @type {Set<number>} */
  const shown = new Set([...body.rows].map((row) => Number(row.dataset.eventId)));
  const format = new Intl.DateTimeFormat(data.locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let added = 0;

  /** @param {{ id: number, time: string, type: string, actor: string, subject: string | null, detail: unknown }} event */
  const row = (event) => {
    const tr = document.createElement('tr');
    tr.dataset.eventId = String(event.id);
    const time = document.createElement('time');
    time.dateTime = event.time;
    time.textContent = `${format.format(new Date(event.time))} UTC`;
    /** @type {[string, string | Node, boolean][]} */
    const cells = [
      [data.labels.time, time, false],
      [data.labels.type, event.type, true],
      [data.labels.actor, event.actor, true],
      [data.labels.subject, event.subject ?? '', true],
      [data.labels.detail, JSON.stringify(event.detail), true],
    ];
    for (const [label, content, mono] of cells) {
      const td = document.createElement('td');
      td.dataset.label = label;
      if (mono) td.className = 'mono';
      td.append(content);
      tr.append(td);
    }
    return tr;
  };

  const poll = async () => {
    const query = new URLSearchParams({ page: '1', page_size: '50' });
    for (const [name, value] of Object.entries(data.query)) if (value) query.set(name, String(value));
    const loaded = await callApi('GET', `/api/admin/events?${query}`);
    if (timer === null) return;
    if (!loaded.ok) {
      stop();
      status.textContent = data.failed;
      return;
    }
    /** @type {any[]} */
    const fresh = loaded.body.events.filter((/** @type {{ id: number }} */ event) => !shown.has(event.id));
    if (fresh.length > 0) {
      for (const event of fresh) shown.add(event.id);
      body.prepend(...fresh.map(row));
      table.hidden = false;
      document.getElementById('events-none')?.setAttribute('hidden', '');
      added += fresh.length;
      const count = added === 1 ? data.newEventsOne : data.newEvents.replace('{count}', String(added));
      status.textContent = `${data.following} ${count}`;
    }
    timer = setTimeout(() => void poll(), pollMs);
  };

  const stop = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    button.setAttribute('aria-pressed', 'false');
  };

  button.addEventListener('click', () => {
    if (timer !== null) {
      stop();
      status.textContent = '';
      return;
    }
    button.setAttribute('aria-pressed', 'true');
    status.textContent = data.following;
    added = 0;
    timer = setTimeout(() => void poll(), 0);
  });
  box.hidden = false;
}
