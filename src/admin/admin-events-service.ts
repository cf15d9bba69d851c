import type { EventRecord } from '../model/index.js';
import type { EventListQuery, Storage } from '../storage/repositories.js';

/**
 * An event as the admin reads it: the log keeps subs only (an erased
 * account leaves no address behind), so the e-mails are those of the users
 * holding the actor's and the subject's subs when the log is read. Null
 * when no user has the sub: `config`, a key id, an erased account.
 */
export interface AdminEventView extends EventRecord {
  actorEmail: string | null;
  subjectEmail: string | null;
}

export interface AdminEventsService {
  /** One page of the audit event log, newest first, and how many events match. */
  list(query: EventListQuery): Promise<{ events: AdminEventView[]; total: number }>;
}

export function createAdminEventsService(storage: Pick<Storage, 'db' | 'repositories'>): AdminEventsService {
  const { db, repositories } = storage;
  return {
    async list(query) {
      const page = await repositories.events.list(db, query);
      // One lookup for the whole page, not one per event.
      const subs = new Set(
        page.events.flatMap((event) => (event.subject === null ? [event.actor] : [event.actor, event.subject])),
      );
      const users = subs.size === 0 ? [] : await repositories.users.findBySubs(db, [...subs]);
      const emails = new Map(users.map((user) => [user.sub, user.email]));
      const emailOf = (sub: string | null) => (sub === null ? null : (emails.get(sub) ?? null));
      return {
        events: page.events.map((event) => ({
          ...event,
          actorEmail: emailOf(event.actor),
          subjectEmail: emailOf(event.subject),
        })),
        total: page.total,
      };
    },
  };
}
