import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { formatProblem, type LoadResult } from '../config/index.js';
import { compareConfigs, swapConfig } from '../config/swap-config.js';
import type { Config } from '../config/types.js';
import type { Storage } from '../storage/repositories.js';
import { applyConfig } from './apply-config.js';
import { ApplyConflictError } from './apply-conflict-error.js';
import type { Change, PlanSummary } from './plan.js';

export type ReloadOutcome = 'reloaded' | 'refused';

export interface ConfigReloader {
  /**
   * Reads the file again and, when it is valid, applies it and swaps it in.
   * One reload runs at a time: a request made during one runs once after it
   * (several such requests fold into that one), so the file's latest
   * contents win and nothing interleaves.
   */
  reload(reason: string): Promise<ReloadOutcome>;
  /** Resolves when no reload is running or waiting (before shutdown). */
  idle(): Promise<void>;
}

export interface ConfigReloaderDeps {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  /** The Config object every service of the running server holds; reloads assign into it. */
  running: Config;
  /** Reads and loads the file as `serve` did at start (its --host/--port included). */
  load(): Promise<LoadResult>;
  /** false under `serve --no-apply`: this process never writes config-managed objects, a reload included. */
  apply: boolean;
  /** After an apply that changed something: drop what this process caches of the applied objects (the client directory). */
  onApplied(): Promise<void>;
}

/**
 * Reload without restart (SIGHUP, `serve --watch`; docs/configuration.md
 * "Reload"): load → validate → apply (the same one transaction under the
 * apply lock as `idp apply`) → swap the live settings into the running
 * Config → one log line saying what changed. Any failure before the swap
 * (an invalid or missing file, a collision with database-managed objects,
 * a database error) leaves the database as it was (the transaction rolls
 * back) and the running config untouched, and is logged with its reason;
 * the server goes on serving the last good config.
 *
 * Other instances sharing the database need no signal for what apply
 * stores: they read users at each request and notice changed clients
 * within a second (src/clients/client-directory.ts).
 */
export function createConfigReloader(deps: ConfigReloaderDeps): ConfigReloader {
  const { logger } = deps;
  let current: Promise<ReloadOutcome> | null = null;
  let queued: Promise<ReloadOutcome> | null = null;

  async function run(reason: string): Promise<ReloadOutcome> {
    const result = await deps.load();
    if (!result.ok) {
      for (const problem of result.problems)
        (problem.severity === 'error' ? logger.error : logger.warn).call(logger, formatProblem(problem));
      const errors = result.problems.filter((p) => p.severity === 'error').length;
      return refuse(reason, `the config is invalid (${errors} ${errors === 1 ? 'problem' : 'problems'})`);
    }
    for (const warning of result.warnings) logger.warn(formatProblem(warning));
    const { effective, live, restart } = compareConfigs(deps.running, result.config);
    let summary: PlanSummary | null = null;
    let changed: Change[] = [];
    if (deps.apply) {
      try {
        const applied = await applyConfig(deps.storage, effective, { clock: deps.clock });
        summary = applied.plan.summary;
        changed = applied.plan.changes;
        if (applied.applied) await deps.onApplied();
      } catch (error) {
        if (!(error instanceof ApplyConflictError))
          return refuse(reason, `it could not be applied: ${firstLine(error)}`, error);
        for (const problem of error.problems) logger.error(`${deps.running.file ?? 'built-in defaults'}: ${problem}`);
        return refuse(reason, 'the config collides with database-managed objects; nothing was applied');
      }
    }
    swapConfig(deps.running, effective);
    logger.level = deps.running.logging.level;
    const changes = [...describeChanges(changed), ...(live.length > 0 ? [`now in effect: ${live.join(', ')}`] : [])];
    logger.info(
      { reason, applied: summary, live, restart_needed: restart },
      `config reloaded (${reason}): ${changes.length > 0 ? changes.join('; ') : 'no changes'}${deps.apply ? '' : ' (objects not applied: --no-apply)'}`,
    );
    if (restart.length > 0) {
      const verb = restart.length === 1 ? 'takes' : 'take';
      logger.warn(
        { restart_needed: restart },
        `config reload: ${restart.join(', ')} changed and ${verb} effect after a restart; the running values stay`,
      );
    }
    return 'reloaded';
  }

  function refuse(reason: string, why: string, error?: unknown): ReloadOutcome {
    logger.error(
      { reason, ...(error ? { err: error } : {}) },
      `config reload (${reason}) refused: ${why}; still serving the previous config`,
    );
    return 'refused';
  }

  function start(reason: string): Promise<ReloadOutcome> {
    // A bug must not leave a rejected promise behind a signal handler: it is logged and counts as refused.
    current = run(reason)
      .catch((error: unknown) => refuse(reason, `unexpected error: ${firstLine(error)}`, error))
      .finally(() => {
        current = null;
      });
    return current;
  }

  return {
    reload(reason) {
      if (!current) return start(reason);
      queued ??= current.then(() => {
        queued = null;
        return start(reason);
      });
      return queued;
    },
    async idle() {
      while (current || queued) await (queued ?? current);
    },
  };
}

/** `created client shop, updated user ada` (the keys only: never a value, which may be a secret), at most 10 named. */
function describeChanges(changes: Change[]): string[] {
  if (changes.length === 0) return [];
  const verbs = { create: 'created', update: 'updated', remove: 'removed' } as const;
  const named = changes.slice(0, 10).map((c) => `${verbs[c.action]} ${c.kind.replace('_', ' ')} ${c.key}`);
  return [`${named.join(', ')}${changes.length > 10 ? ` and ${changes.length - 10} more` : ''}`];
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}
