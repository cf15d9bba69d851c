import type { CliContext } from '../context.js';
import { withGitopsFoundation } from '../with-gitops-foundation.js';
import { applyConfig, renderPlan, type ApplyProgress } from '../../gitops/index.js';

/** Below this many new rows an apply is quick enough to need no progress display. */
const PROGRESS_THRESHOLD = 1000;

/**
 * `idp apply [-c FILE] [--dry-run]`: reconciles the database with the config
 * in one transaction, then prints the plan and `Applied: …` (or `No
 * changes.`). Progress goes to stderr on a TTY for big applies.
 */
export async function runApply(ctx: CliContext, opts: { config?: string; dryRun?: boolean }): Promise<number> {
  return withGitopsFoundation(ctx, opts.config, async ({ storage, clock }, config) => {
    const onProgress = (progress: ApplyProgress) => {
      if (ctx.output.isTTY && progress.total >= PROGRESS_THRESHOLD) {
        ctx.output.err(ctx.output.color.dim(`  ${progress.kind}: ${progress.done}/${progress.total} created`));
      }
    };
    const result = await applyConfig(storage, config, { dryRun: opts.dryRun, onProgress, clock });
    renderPlan(result.plan, ctx.output);
    const { create, update, remove } = result.plan.summary;
    if (opts.dryRun && result.plan.changes.length > 0) ctx.output.out('Dry run: nothing was applied.');
    if (result.applied)
      ctx.output.out(ctx.output.color.green(`Applied: ${create} created, ${update} updated, ${remove} removed.`));
    return 0;
  });
}
