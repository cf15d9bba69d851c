/**
 * The audit event log (issue #14). Services record what happened in the
 * unit of work of the change itself (`events.record(tx, …)`), so an action
 * that rolls back leaves no event; once it commits, the same event goes to
 * the server log as one structured line, for log shippers.
 */
export { createEventLog, type EventLog, type EventInput } from './event-log.js';
