/** The per-call view of a batched operation: each call gets its own answer (or the batch's error). */
export type Batched<I, O> = (input: I) => Promise<O>;

/**
 * Group commit: the calls made in one event-loop turn become one `run` over
 * all their inputs, whose i-th answer goes to the i-th call. At most
 * `concurrency` runs are under way; calls made meanwhile wait and go
 * together in the next run, so a busy server sends fewer, larger batches
 * and an idle one a batch of one at once. A run that throws rejects every
 * call of its batch: a run that must isolate its calls' failures does so
 * itself. A batch never holds a call that arrived after it started, which
 * is what lets a freshness check (generation-gate.ts) be shared.
 */
export function batchPerTurn<I, O>(
  run: (inputs: I[]) => Promise<O[]>,
  options: { concurrency?: number; maxBatch?: number } = {},
): Batched<I, O> {
  const concurrency = options.concurrency ?? 1;
  const maxBatch = options.maxBatch ?? 256;
  let queue: { input: I; resolve(output: O): void; reject(error: unknown): void }[] = [];
  let scheduled = false;
  let running = 0;

  function schedule() {
    if (scheduled || running >= concurrency || queue.length === 0) return;
    scheduled = true;
    setImmediate(flush);
  }

  function flush() {
    scheduled = false;
    while (queue.length > 0 && running < concurrency) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      running++;
      Promise.resolve()
        .then(() => run(batch.map((call) => call.input)))
        .then(
          (outputs) => batch.forEach((call, i) => call.resolve(outputs[i])),
          (error: unknown) => batch.forEach((call) => call.reject(error)),
        )
        .finally(() => {
          running--;
          schedule();
        });
    }
  }

  return (input) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      schedule();
    });
}
