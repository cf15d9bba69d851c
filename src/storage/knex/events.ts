import type { Knex } from 'knex';
import type { EventListQuery, EventRepository } from '../repositories.js';
import type { EventDetail, EventRecord, EventType } from '../../model/index.js';
import { onKnex } from './on-knex.js';

interface EventRow {
  id: number | string;
  time: number | string;
  type: string;
  actor: string;
  subject: string | null;
  client_address: string | null;
  client_id: string | null;
  detail: string;
}

const eventFromRow = (row: EventRow): EventRecord => ({
  id: Number(row.id),
  time: Number(row.time),
  type: row.type as EventType,
  actor: row.actor,
  subject: row.subject,
  clientAddress: row.client_address,
  clientId: row.client_id,
  detail: JSON.parse(row.detail) as EventDetail,
});

function matching(tx: Knex, query: EventListQuery): Knex.QueryBuilder {
  const builder = tx('events');
  if (query.type !== undefined) builder.where('type', query.type);
  if (query.actor !== undefined) builder.where('actor', query.actor);
  if (query.subject !== undefined) builder.where('subject', query.subject);
  if (query.since !== undefined) builder.where('time', '>=', query.since);
  if (query.until !== undefined) builder.where('time', '<', query.until);
  return builder;
}

export const knexEventRepository = onKnex<EventRepository>({
  async append(tx, event) {
    await tx('events').insert({
      time: event.time,
      type: event.type,
      actor: event.actor,
      subject: event.subject,
      client_address: event.clientAddress,
      client_id: event.clientId,
      detail: JSON.stringify(event.detail),
    });
  },
  async list(tx, query) {
    const [rows, [{ total }]] = await Promise.all([
      matching(tx, query)
        .orderBy([
          { column: 'time', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize) as Promise<EventRow[]>,
      matching(tx, query).count({ total: '*' }) as Promise<{ total: number | string }[]>,
    ]);
    return { events: rows.map(eventFromRow), total: Number(total) };
  },
  async deleteBefore(tx, before, limit) {
    // A bounded batch by id, so that a large backlog never holds one long lock.
    const ids = tx('events').select('id').where('time', '<', before).orderBy('id').limit(limit);
    return tx('events').whereIn('id', ids).delete();
  },
});
