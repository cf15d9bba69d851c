import type { BackgroundJobRecord } from '../../src/model/index.js';

/**
 * Reads the JSON log lines of several scheduler processes, with the jobs'
 * final rows, and lists every breach of "each job succeeded exactly once,
 * and was re-run only when the killed instance dropped it, after its lease
 * ran out" and "each cleanup tick ran exactly once".
 */
export function checkExactlyOnce(
  logs: Record<string, unknown>[][],
  finalJobs: BackgroundJobRecord[],
  killedInstance: string,
  lockTtlMs: number,
): { problems: string[]; interruptedByKill: number; ticks: number } {
  const problems: string[] = [];
  const all = logs.flat();
  const transitions = all.filter((l) => l.event === 'job.transition');
  let interruptedByKill = 0;
  for (const job of finalJobs) {
    const mine = transitions.filter((l) => l.jobId === job.id);
    const succeeded = mine.filter((l) => l.to === 'succeeded');
    const claims = mine.filter((l) => l.to === 'running');
    const last = claims.reduce<Record<string, unknown> | undefined>(
      (a, b) => (a && (a.attempt as number) > (b.attempt as number) ? a : b),
      undefined,
    );
    // SIGKILL can land between the killed instance's `succeeded` write and its log line: the row is the truth then.
    const silentSuccess =
      succeeded.length === 0 &&
      last?.instanceId === killedInstance &&
      job.state === 'succeeded' &&
      job.attempts === last.attempt;
    if (job.state !== 'succeeded') problems.push(`job ${job.id} ended ${job.state}`);
    if (succeeded.length + (silentSuccess ? 1 : 0) !== 1)
      problems.push(`job ${job.id} succeeded ${succeeded.length} times`);
    // A second claim is allowed only for a job the killed instance held and never finished.
    const interrupted = claims.filter(
      (l) =>
        l.instanceId === killedInstance &&
        !(silentSuccess && l === last) &&
        !mine.some((m) => m.instanceId === killedInstance && m.from === 'running' && m.attempt === l.attempt),
    );
    if (claims.length !== 1 + interrupted.length)
      problems.push(`job ${job.id} was claimed ${claims.length} times (${interrupted.length} interrupted by the kill)`);
    interruptedByKill += interrupted.length;
    // The re-claim may only come once the killed instance's lease ran out (its claim line says when it would,
    // at the earliest; renewals only push it later), and so at least lock_ttl_ms after that claim.
    for (const dead of interrupted) {
      const next = claims.find((l) => (l.attempt as number) === (dead.attempt as number) + 1);
      if (!next) continue;
      if ((dead.leaseExpiresAt as number) - (dead.time as number) > lockTtlMs)
        problems.push(`job ${job.id}: the claim logged a lease longer than lock_ttl_ms`);
      if ((next.time as number) < (dead.leaseExpiresAt as number))
        problems.push(
          `job ${job.id} was re-claimed at ${next.time as number}, before the killed instance's lease expired at ${dead.leaseExpiresAt as number}`,
        );
    }
  }
  const tickRuns = new Map<number, string[]>();
  for (const line of all.filter(
    (l) => l.event === 'schedule.run' && l.phase === 'started' && l.schedule === 'cleanup',
  )) {
    tickRuns.set(line.tick as number, [...(tickRuns.get(line.tick as number) ?? []), line.instanceId as string]);
  }
  for (const [tick, instances] of tickRuns) {
    if (instances.length !== 1)
      problems.push(`cleanup tick ${new Date(tick).toISOString()} ran on ${instances.join(', ')}`);
  }
  return { problems, interruptedByKill, ticks: tickRuns.size };
}
