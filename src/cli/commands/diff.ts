import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { withGitopsFoundation } from '../with-gitops-foundation.js';
import { applyConfig, planToJson, renderPlan } from '../../gitops/index.js';

export const diffFormats = ['text', 'json'] as const;

/**
 * `idp diff [-c FILE] [--format text|json] [--exit-code]`: what apply would
 * change, written nowhere. With --exit-code: 2 when changes are pending,
 * 0 when none (docs/cli.md).
 */
export async function runDiff(
  ctx: CliContext,
  opts: { config?: string; format?: string; exitCode?: boolean },
): Promise<number> {
  const format = opts.format ?? 'text';
  if (!(diffFormats as readonly string[]).includes(format)) {
    throw new CliError(`unknown --format "${format}" (expected ${diffFormats.join(', ')})`, 2);
  }
  return withGitopsFoundation(ctx, opts.config, async ({ storage, clock }, config) => {
    const { plan } = await applyConfig(storage, config, { dryRun: true, clock });
    if (format === 'json') ctx.output.out(planToJson(plan));
    else renderPlan(plan, ctx.output);
    return opts.exitCode && plan.changes.length > 0 ? 2 : 0;
  });
}
