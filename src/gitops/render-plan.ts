import { SENSITIVE, type Change, type Plan, type PlanValue } from './plan.js';

/** Where a rendered plan goes: one line at a time, with optional colours. */
export interface PlanOutput {
  out(line: string): void;
  color: Record<'green' | 'yellow' | 'red' | 'bold', (text: string) => string>;
}

const markers = { create: '+', update: '~', remove: '-' } as const;

function show(value: PlanValue): string {
  return value === SENSITIVE ? SENSITIVE : JSON.stringify(value);
}

function colorOf(output: PlanOutput, change: Change): (text: string) => string {
  if (change.action === 'create') return output.color.green;
  if (change.action === 'update') return output.color.yellow;
  return output.color.red;
}

/**
 * The human plan, one object per block:
 *
 *     + user alice
 *         email: "alice@example.com"
 *     ~ client web
 *         redirect_uris: ["https://a/cb"] → ["https://a/cb","https://b/cb"]
 *     - term privacy
 *
 *     Plan: 1 to create, 1 to update, 1 to remove.
 *
 * or `No changes.` Secrets and their hashes appear only as (sensitive).
 */
export function renderPlan(plan: Plan, output: PlanOutput): void {
  if (plan.changes.length === 0) {
    output.out('No changes.');
    return;
  }
  for (const change of plan.changes) {
    const paint = colorOf(output, change);
    output.out(paint(`${markers[change.action]} ${change.kind} ${change.key}`));
    for (const field of change.fields) {
      const text = change.action === 'create' ? show(field.new) : `${show(field.old)} → ${show(field.new)}`;
      output.out(`    ${field.field}: ${text}`);
    }
  }
  output.out('');
  const { create, update, remove } = plan.summary;
  output.out(output.color.bold(`Plan: ${create} to create, ${update} to update, ${remove} to remove.`));
}
