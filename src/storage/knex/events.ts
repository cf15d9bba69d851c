import type { Knex } from 'knex';
import type { EventListQuery, EventRepository } from '../repositories.js';
import type { EventRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { inBatches } from './in-batches.js';
import { defineTable, integer, json, nullable, text, timestamp, type Row } from './define-table.js';

const events = defineTable<EventRecord>('events', {
  id: ['id', integer],
  time: ['time', timestamp],
  type: ['type', text()],
  actor: ['actor', text()],
  subject: ['subject', nullable(text())],
  clientAddress: ['client_address', nullable(text())],
  clientId: ['client_id', nullable(text())],
  detail: ['detail', json()],
});

const msPerDay = 86_400_000;

/** Rows per insert: seven bound parameters each. */
const APPEND_BATCH = 500;

function matching(tx: Knex, query: Omit<EventListQuery, 'page' | 'pageSize'>): Knex.QueryBuilder {
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
    await tx('events').insert(events.toColumns(event));
  },
  async appendMany(tx, many) {
    for (const batch of inBatches(many, APPEND_BATCH)) await tx('events').insert(batch.map(events.toColumns));
  },
  async list(tx, query) {
    const [rows, [{ total }]] = await Promise.all([
      matching(tx, query)
        .orderBy([
          { column: 'time', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize) as Promise<Row[]>,
      matching(tx, query).count({ total: '*' }) as Promise<{ total: number | string }[]>,
    ]);
    return { events: rows.map(events.fromRow), total: Number(total) };
  },
  async countPerDay(tx, { type, since, until }) {
    // Integer division on both engines (BIGINT in PostgreSQL, INTEGER in SQLite); a literal, so both clauses read the same expression.
    const dayOf = `time / ${msPerDay}`;
    const rows = (await matching(tx, { type, since, until })
      .select(tx.raw(`${dayOf} AS day`))
      .count({ n: '*' })
      .groupByRaw(dayOf)) as { day: number | string; n: number | string }[];
    return new Map(rows.map((row) => [Number(row.day) * msPerDay, Number(row.n)]));
  },
  async deleteBefore(tx, before, limit) {
    // A bounded batch by id, so that a large backlog never holds one long lock.
    const ids = tx('events').select('id').where('time', '<', before).orderBy('id').limit(limit);
    return tx('events').whereIn('id', ids).delete();
  },
});
