import type { JobHandler } from './job-handler.js';

/** The longest a noop job waits: it is a diagnostic, not a way to park work. */
export const noopMaxDelayMs = 60_000;

/**
 * The built-in `noop` job kind: waits `delayMs` (0..60000, stopping early
 * when aborted) and succeeds. Harmless: its only trace is its row and its
 * log lines. The multi-instance tests and the benchmark run it on real
 * `idp serve` processes, which is why every instance registers it.
 */
// The payload is read back from the database: whatever was enqueued, checked here.
export const noopHandler: JobHandler<'noop'> = async (payload: { delayMs?: unknown } | null, { signal }) => {
  const delayMs = Math.min(Math.max(Number(payload?.delayMs ?? 0), 0), noopMaxDelayMs);
  if (delayMs === 0) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, delayMs);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    });
  });
};
