/**
 * Reads the JSON log lines of several scheduler processes and lists every
 * breach of "each job succeeded exactly once, and re-ran only after the
 * killed instance dropped it" and "each cleanup tick ran exactly once".
 */
export function checkExactlyOnce(
  logs: Record<string, unknown>[][],
  jobIds: string[],
  killedInstance: string,
  lockTtlMs: number,
): { problems: string[]; interruptedByKill: number; ticks: number } {
  const problems: string[] = [];
  const all = logs.flat();
  const transitions = all.filter((l) => l.event === 'job.transition');
  let interruptedByKill = 0;
  for (const id of jobIds) {
    const mine = transitions.filter((l) => l.jobId === id);
    const succeeded = mine.filter((l) => l.to === 'succeeded');
    const claims = mine.filter((l) => l.to === 'running');
    if (succeeded.length !== 1) problems.push(`job ${id} succeeded ${succeeded.length} times`);
    // A second claim is allowed only for a job the killed instance held and never finished.
    const killedClaims = claims.filter((l) => l.instanceId === killedInstance && !mine.some((m) => m.instanceId === killedInstance && m.from === 'running' && m.attempt === l.attempt));
    if (claims.length !== 1 + killedClaims.length) problems.push(`job ${id} was claimed ${claims.length} times (${killedClaims.length} by the killed instance)`);
    interruptedByKill += killedClaims.length;
    // The re-claim may only come once the killed instance's lease (at least lock_ttl_ms from its claim) ran out.
    for (const dead of killedClaims) {
      const next = claims.find((l) => (l.attempt as number) === (dead.attempt as number) + 1);
      if (next && (next.time as number) < (dead.time as number) + lockTtlMs) problems.push(`job ${id} was re-claimed ${(next.time as number) - (dead.time as number)} ms after the killed instance claimed it`);
    }
  }
  const tickRuns = new Map<number, string[]>();
  for (const line of all.filter((l) => l.event === 'schedule.run' && l.phase === 'started' && l.schedule === 'cleanup')) {
    tickRuns.set(line.tick as number, [...(tickRuns.get(line.tick as number) ?? []), line.instanceId as string]);
  }
  for (const [tick, instances] of tickRuns) {
    if (instances.length !== 1) problems.push(`cleanup tick ${new Date(tick).toISOString()} ran on ${instances.join(', ')}`);
  }
  return { problems, interruptedByKill, ticks: tickRuns.size };
}
