/** The audit event log (src/events). */
import type { EventRecord, EventType, NewEventRecord } from '../../model/index.js';
import type { Tx } from './tx.js';

export interface EventListQuery {
  type?: EventType;
  actor?: string;
  subject?: string;
  /** Inclusive lower bound of `time`. */
  since?: number;
  /** Exclusive upper bound of `time`. */
  until?: number;
  page: number;
  pageSize: number;
}

export interface EventRepository {
  /** Appends one event in the unit of work of the change it records, so a rolled-back change leaves no event. */
  append(tx: Tx, event: NewEventRecord): Promise<void>;
  /** Appends many events in their order, in batched statements (apply's membership changes of thousands of users). */
  appendMany(tx: Tx, events: NewEventRecord[]): Promise<void>;
  /** One page of matching events, newest first (time, then id), and how many match in all. */
  list(tx: Tx, query: EventListQuery): Promise<{ events: EventRecord[]; total: number }>;
  /**
   * How many events of `type` fell in each UTC day of [since, until), both
   * day-aligned: one grouped count (the console's Overview chart). Keyed by
   * the day's start (ms since the epoch); a day without events is absent.
   */
  countPerDay(tx: Tx, query: { type: EventType; since: number; until: number }): Promise<Map<number, number>>;
  /** Deletes up to `limit` events older than `before`; resolves with how many went. */
  deleteBefore(tx: Tx, before: number, limit: number): Promise<number>;
}
