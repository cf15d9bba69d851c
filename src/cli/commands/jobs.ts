import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { loadCommandConfig } from '../load-command-config.js';
import { openCommandFoundation } from '../open-command-foundation.js';
import { renderTable, type TableColumn } from '../admin/render-table.js';
import { createFoundationScheduler } from '../../app.js';
import { createLogger } from '../../logger.js';
import { allScheduledJobs } from '../../scheduler/index.js';
import type { BackgroundJobRecord, BackgroundJobState } from '../../model/index.js';

const states: BackgroundJobState[] = ['pending', 'running', 'succeeded', 'failed'];

export interface JobsListOptions {
  config?: string;
  state?: string;
  limit?: string;
  json?: boolean;
}

/** `idp jobs list`: the newest background jobs (a table for people, `--json` for scripts) and the count per state. */
export async function runJobsList(ctx: CliContext, opts: JobsListOptions): Promise<number> {
  const state = parseState(opts.state);
  const limit = parseLimit(opts.limit);
  const config = await loadCommandConfig(ctx, opts.config, ['database', 'scheduler', 'cleanup']);
  const { storage } = await openCommandFoundation(config, ctx.cwd);
  try {
    const repo = storage.repositories.backgroundJobs;
    const [jobs, counts] = await Promise.all([repo.list(storage.db, { state, limit }), repo.countByState(storage.db)]);
    if (opts.json) {
      ctx.output.out(JSON.stringify({ jobs, counts }, null, 2));
      return 0;
    }
    if (jobs.length === 0) ctx.output.out(state ? `no ${state} jobs` : 'no background jobs');
    else for (const line of renderTable(ctx.output, columns(ctx), jobs)) ctx.output.out(line);
    ctx.output.out(states.map((s) => `${s} ${counts[s]}`).join('  '));
    return 0;
  } finally {
    await storage.close();
  }
}

/** `idp jobs run <name>`: runs a scheduled job (e.g. cleanup) once, now, in this process. */
export async function runJobsRun(
  ctx: CliContext,
  name: string,
  opts: { config?: string; json?: boolean },
): Promise<number> {
  const config = await loadCommandConfig(ctx, opts.config, ['database', 'scheduler', 'cleanup']);
  const known = allScheduledJobs(config).map((job) => job.name);
  if (!known.includes(name)) throw new CliError(`unknown scheduled job "${name}" (expected ${known.join(', ')})`, 2);
  const foundation = await openCommandFoundation(config, ctx.cwd);
  try {
    // Logs go to stderr: stdout carries the result.
    const logger = createLogger(
      { level: config.logging.level === 'silent' ? 'silent' : 'warn', format: config.logging.format },
      process.stderr,
    );
    const scheduler = createFoundationScheduler(foundation, logger);
    const summary = await scheduler.runNow(name);
    if (opts.json) ctx.output.out(JSON.stringify({ job: name, result: summary }, null, 2));
    else
      ctx.output.out(
        `${name}: ${
          Object.entries(summary)
            .map(([key, n]) => `${key} ${n}`)
            .join(', ') || 'done'
        }`,
      );
    return 0;
  } finally {
    await foundation.storage.close();
  }
}

function columns(ctx: CliContext): TableColumn<BackgroundJobRecord>[] {
  const { color } = ctx.output;
  const stateColor: Record<BackgroundJobState, (s: string) => string> = {
    pending: color.yellow,
    running: color.cyan,
    succeeded: color.green,
    failed: color.red,
  };
  return [
    { header: 'ID', cell: (job) => job.id, shrinkTo: 8 },
    { header: 'KIND', cell: (job) => job.kind },
    { header: 'STATE', cell: (job) => stateColor[job.state](job.state) },
    { header: 'ATTEMPTS', cell: (job) => `${job.attempts}/${job.maxAttempts}`, align: 'right' },
    { header: 'RUN AT', cell: (job) => iso(job.runAt), dropOrder: 3 },
    { header: 'OWNER', cell: (job) => job.leaseOwner ?? '', dropOrder: 1 },
    { header: 'FINISHED', cell: (job) => (job.finishedAt === null ? '' : iso(job.finishedAt)), dropOrder: 2 },
    { header: 'LAST ERROR', cell: (job) => job.lastError ?? '', shrinkTo: 12, dropOrder: 4 },
  ];
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function parseState(value: string | undefined): BackgroundJobState | undefined {
  if (value === undefined) return undefined;
  if (!states.includes(value as BackgroundJobState))
    throw new CliError(`--state: unknown state "${value}" (expected ${states.join(', ')})`, 2);
  return value as BackgroundJobState;
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return 50;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new CliError(`--limit: expected an integer from 1 to 10000, got "${value}"`, 2);
  return limit;
}
