import type { Output } from '../output.js';
import type { AuditEvent, EventListResponse } from './admin-api-types.js';
import { renderTable, type TableColumn } from './render-table.js';

// `2026-11-22T10:15:02.123Z` → `2026-11-22 10:15:02`: seconds tell a burst of failed sign-ins apart.
const shortTime = (iso: string) => iso.slice(0, 19).replace('T', ' ');

/**
 * `ada@example.com (3464e2d8-…)`: the e-mail is what a person recognises, so it comes first and a
 * narrow column cuts the sub; a sub no user holds (`config`, an erased account) stands alone.
 */
const who = (sub: string, email: string | null) => (email === null || email === sub ? sub : `${email} (${sub})`);

const detailText = (event: AuditEvent) => (Object.keys(event.detail).length === 0 ? '' : JSON.stringify(event.detail));

// On a narrow terminal DETAIL, CLIENT and ADDRESS go first, then ACTOR and SUBJECT are cut.
const columns: TableColumn<AuditEvent>[] = [
  { header: 'TIME (UTC)', cell: (event) => shortTime(event.time) },
  { header: 'TYPE', cell: (event) => event.type },
  { header: 'ACTOR', cell: (event) => who(event.actor, event.actor_email), shrinkTo: 12 },
  {
    header: 'SUBJECT',
    cell: (event) => (event.subject === null ? '' : who(event.subject, event.subject_email)),
    shrinkTo: 12,
  },
  { header: 'ADDRESS', cell: (event) => event.client_address ?? '', dropOrder: 3 },
  { header: 'CLIENT', cell: (event) => event.client_id ?? '', dropOrder: 2 },
  { header: 'DETAIL', cell: detailText, shrinkTo: 20, dropOrder: 1 },
];

/** The `events list` table, newest first as the server answers, and its footer (`page 1 of 3 · 52 events`). */
export function renderEventList(output: Output, answer: EventListResponse): string[] {
  const { events, pagination } = answer;
  const lines =
    events.length === 0
      ? [pagination.total === 0 ? 'no events match' : 'no events on this page']
      : renderTable(output, columns, events);
  const pages = Math.max(1, Math.ceil(pagination.total / pagination.page_size));
  lines.push(
    '',
    output.color.dim(
      `page ${pagination.page} of ${pages} · ${pagination.total} ${pagination.total === 1 ? 'event' : 'events'}`,
    ),
  );
  return lines;
}

/** One followed event per line, oldest first, columns separated by two spaces (a table cannot grow downwards). */
export function renderEventLine(event: AuditEvent): string {
  return [
    shortTime(event.time),
    event.type,
    who(event.actor, event.actor_email),
    event.subject === null ? '-' : who(event.subject, event.subject_email),
    event.client_address ?? '-',
    event.client_id ?? '-',
    detailText(event),
  ]
    .join('  ')
    .trimEnd();
}
