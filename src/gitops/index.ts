/**
 * GitOps: plan (`idp diff`) and apply (`idp apply`) of config-managed
 * objects: users, clients, groups with their config memberships, terms and
 * upstream identity providers.
 *
 * Flow: applyConfig opens one transaction → takes the apply lock →
 * planChanges reads each table once and compares in memory (collisions with
 * database-managed objects stop here, before any write), then planAccess
 * finds who gains or loses which client by it → writePlan writes the
 * differences in batches and revokes grants of removed principals and of
 * users who lose a client → membership events.
 * renderPlan / planToJson show a plan; secrets only ever as (sensitive).
 * createConfigReloader runs the same apply for a running server (SIGHUP,
 * `serve --watch`) and swaps the new settings into its Config.
 * checkConfigDrift (the scheduled `config-drift` job) records whether the
 * database still holds what the config declares; readConfigDrift reads it.
 * docs/gitops.md describes the semantics.
 */
export { applyConfig, type ApplyOptions, type ApplyResult } from './apply-config.js';
export { ApplyConflictError, type ApplyConflict } from './apply-conflict-error.js';
export { checkConfigDrift } from './check-config-drift.js';
export { readConfigDrift, type ConfigDrift } from './config-drift.js';
export {
  createConfigReloader,
  type ConfigReloader,
  type ConfigReloaderDeps,
  type ReloadOutcome,
} from './config-reloader.js';
export { planChanges } from './plan-changes.js';
export { renderPlan, type PlanOutput } from './render-plan.js';
export { planToJson } from './plan-to-json.js';
export { hashClientSecret } from '../clients/hash-client-secret.js';
export type { ApplyProgress } from './write-plan.js';
export {
  SENSITIVE,
  type AccessChange,
  type Change,
  type ChangeAction,
  type ChangeKind,
  type FieldChange,
  type MemberChanges,
  type Plan,
  type PlanSummary,
} from './plan.js';
