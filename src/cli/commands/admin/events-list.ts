import { setTimeout as sleep } from 'node:timers/promises';
import type { CliContext } from '../../context.js';
import type { AuditEvent, ListEventsParams } from '../../admin/admin-api-types.js';
import type { AdminClient } from '../../admin/admin-client.js';
import { openAdminClient } from '../../admin/open-admin-client.js';
import type { ServerOptions } from '../../admin/server-url.js';
import { printJson } from '../../admin/print-json.js';
import { renderEventLine, renderEventList } from '../../admin/render-event-list.js';

export interface EventsListOptions extends ServerOptions {
  type?: string;
  actor?: string;
  subject?: string;
  since?: string;
  until?: string;
  page?: number;
  pageSize?: number;
  json?: boolean;
  follow?: boolean;
  /** Seconds between polls under --follow. */
  interval?: number;
}

/**
 * `idp admin events list`: GET /api/admin/events with the filters given
 * (the server's defaults and bounds apply otherwise). `--follow` prints the
 * matching events of the last page it can see, oldest first, then polls for
 * newer ones until stopped (Ctrl-C), one line each (one JSON object each
 * under --json).
 */
export async function runEventsList(ctx: CliContext, opts: EventsListOptions): Promise<number> {
  const client = await openAdminClient(ctx, opts);
  const params: ListEventsParams = {
    type: opts.type,
    actor: opts.actor,
    subject: opts.subject,
    since: opts.since,
    until: opts.until,
    page: opts.page,
    page_size: opts.pageSize,
  };
  if (opts.follow) return follow(ctx, client, params, opts);
  const answer = await client.listEvents(params);
  if (opts.json) printJson(ctx.output, answer);
  else for (const line of renderEventList(ctx.output, answer)) ctx.output.out(line);
  return 0;
}

async function follow(
  ctx: CliContext,
  client: AdminClient,
  params: ListEventsParams,
  opts: EventsListOptions,
): Promise<number> {
  const intervalMs = (opts.interval ?? 2) * 1000;
  const print = (event: AuditEvent) => ctx.output.out(opts.json ? JSON.stringify(event) : renderEventLine(event));
  // Events of the same millisecond share a time: polling from the newest time seen and skipping ids already printed misses none.
  let since = params.since;
  let seen = new Set<number>();
  for (;;) {
    const answer = await client.listEvents({ ...params, since, page: 1, page_size: 100 });
    const fresh = answer.events.filter((event) => !seen.has(event.id)).reverse();
    for (const event of fresh) print(event);
    if (answer.events.length > 0) {
      const newest = answer.events[0].time;
      if (newest !== since) seen = new Set();
      since = newest;
      for (const event of answer.events) if (event.time === newest) seen.add(event.id);
    }
    try {
      await sleep(intervalMs, undefined, { signal: ctx.signal });
    } catch {
      return 0;
    }
  }
}
