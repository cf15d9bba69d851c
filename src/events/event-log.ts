import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { EventDetail, EventType } from '../model/index.js';
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
}

/** `logger` is the server log; a CLI command that writes events (`idp apply`) has none, and its events are in the table alone. */
export function createEventLog(deps: {
  storage: Pick<Storage, 'repositories' | 'afterCommit'>;
  logger?: Logger;
  clock: Clock;
}): EventLog {
  const { storage, logger, clock } = deps;
  return {
    async record(tx, input) {
      const event = {
        time: clock.now(),
        type: input.type,
        actor: input.actor,
        subject: input.subject ?? null,
        clientAddress: input.clientAddress ?? null,
        clientId: input.clientId ?? null,
        detail: input.detail ?? {},
      };
      await storage.repositories.events.append(tx, event);
      if (!logger) return;
      storage.afterCommit(tx, () =>
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
        ),
      );
    },
  };
}
