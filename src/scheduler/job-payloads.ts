/**
 * The payload type of every job kind. A capability that adds a kind extends
 * this interface by declaration merging, next to its handler:
 *
 *   declare module '../scheduler/job-payloads.js' {
 *     interface JobPayloads { 'email.send': { to: string; template: string } }
 *   }
 *
 * so that `enqueue('email.send', payload)` and its handler are type-checked.
 */
export interface JobPayloads {
  /** Built in and harmless: does nothing for `delayMs` (0..60000), then succeeds. See docs/scheduler.md. */
  noop: { delayMs?: number; note?: string };
}

export type JobKind = keyof JobPayloads & string;
