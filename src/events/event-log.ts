import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { EventDetail, EventType, NewEventRecord } from '../model/index.js';
import type { Storage, Tx } from '../storage/repositories.js';

export interface EventInput {
  type: EventType;
  actor: string;
  subject?: string | null;
  clientAddress?: string | null;
  clientId?: string | null;
  /** Small, and never a secret, password, code or token. */
  detail?: EventDetail;
}

export interface EventLog {
  record(tx: Tx, event: EventInput): Promise<void>;
  /** The same for many events of one change (apply's membership changes), in batched statements. */
  recordMany(tx: Tx, events: EventInput[]): Promise<void>;
}

/**
 * `logger` is the server log; a CLI command that writes events (`idp apply`) has none, and its events are in the table alone.
 * `onCommitted` hears each batch of events once it has committed (the sign-in counters of the metrics).
 */
export function createEventLog(deps: {
  storage: Pick<Storage, 'repositories' | 'afterCommit'>;
  logger?: Logger;
  clock: Clock;
  onCommitted?: (events: readonly NewEventRecord[]) => void;
}): EventLog {
  const { storage, logger, clock, onCommitted } = deps;
  const toRecord = (input: EventInput, time: number): NewEventRecord => ({
    time,
    type: input.type,
    actor: input.actor,
    subject: input.subject ?? null,
    clientAddress: input.clientAddress ?? null,
    clientId: input.clientId ?? null,
    detail: input.detail ?? {},
  });
  const announceAfterCommit = (tx: Tx, records: NewEventRecord[]) => {
    if (!logger && !onCommitted) return;
    storage.afterCommit(tx, () => {
      onCommitted?.(records);
      if (logger)
        for (const event of records)
          logger.info(
            {
              event: event.type,
              actor: event.actor,
              subject: event.subject,
              client_address: event.clientAddress,
              client_id: event.clientId,
              detail: event.detail,
            },
            `event ${event.type}`,
          );
    });
  };
  return {
    async record(tx, input) {
      const event = toRecord(input, clock.now());
      await storage.repositories.events.append(tx, event);
      announceAfterCommit(tx, [event]);
    },
    async recordMany(tx, inputs) {
      const now = clock.now();
      const events = inputs.map((input) => toRecord(input, now));
      await storage.repositories.events.appendMany(tx, events);
      announceAfterCommit(tx, events);
    },
  };
}
