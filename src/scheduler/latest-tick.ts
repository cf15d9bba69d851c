import { Cron } from 'croner';

/**
 * Cron expressions are evaluated in UTC, so every instance, whatever its
 * local time zone, computes the same ticks (docs/scheduler.md).
 */
export function parseCron(expression: string): Cron {
  return new Cron(expression, { timezone: 'UTC', paused: true });
}

/**
 * The latest tick of `cron` in (after, now], or null when none. croner only
 * looks forward, so this searches backward from `now` in doubling steps
 * until a window holds a tick, then walks forward through that window:
 * a few steps even after a long downtime of an every-second schedule.
 */
export function latestTick(cron: Cron, after: number, now: number): number | null {
  const first = cron.nextRun(new Date(after));
  if (!first || first.getTime() > now) return null;
  let step = 1000;
  let from = Math.max(after, now - step);
  while (from > after) {
    const next = cron.nextRun(new Date(from));
    if (next && next.getTime() <= now) break;
    step *= 2;
    from = Math.max(after, now - step);
  }
  let latest = first.getTime();
  let cursor = cron.nextRun(new Date(from));
  while (cursor && cursor.getTime() <= now) {
    latest = cursor.getTime();
    cursor = cron.nextRun(cursor);
  }
  return latest;
}
