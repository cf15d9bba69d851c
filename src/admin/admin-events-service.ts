import type { EventRecord } from '../model/index.js';
import type { EventListQuery, Storage } from '../storage/repositories.js';

export interface AdminEventsService {
  /** One page of the audit event log, newest first, and how many events match. */
  list(query: EventListQuery): Promise<{ events: EventRecord[]; total: number }>;
}

export function createAdminEventsService(storage: Pick<Storage, 'db' | 'repositories'>): AdminEventsService {
  return {
    list: (query) => storage.repositories.events.list(storage.db, query),
  };
}
