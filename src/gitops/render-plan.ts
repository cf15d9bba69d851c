import { SENSITIVE, type AccessChange, type Change, type Plan, type PlanValue } from './plan.js';

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

/** `~ group sre: + carol, - bob`: the members a group gains, then those it loses, on its header line. */
function headerOf(change: Change): string {
  const header = `${markers[change.action]} ${change.kind} ${change.key}`;
  if (!change.members) return header;
  const { added, removed } = change.members;
  return `${header}: ${[...added.map((sub) => `+ ${sub}`), ...removed.map((sub) => `- ${sub}`)].join(', ')}`;
}

/** `- bob loses grafana (3 active grants)`, `+ carol gains grafana`; a forward-auth app has no grants: `- bob loses grafana.example.com`. */
function accessLine(output: PlanOutput, access: AccessChange): string {
  if (access.change === 'gain') return output.color.green(`+ ${access.sub} gains ${access.clientId}`);
  if (access.activeGrants === null) return output.color.red(`- ${access.sub} loses ${access.clientId}`);
  const grants = `${access.activeGrants} active ${access.activeGrants === 1 ? 'grant' : 'grants'}`;
  return output.color.red(`- ${access.sub} loses ${access.clientId} (${grants})`);
}

/**
 * The human plan, one object per block, then who gains or loses which
 * client by it:
 *
 *     + user alice
 *         email: "alice@example.com"
 *     ~ client web
 *         redirect_uris: ["https://a/cb"] → ["https://a/cb","https://b/cb"]
 *     ~ group sre: + carol, - bob
 *     - term privacy
 *
 *     Access:
 *     - bob loses web (3 active grants)
 *     + carol gains web
 *
 *     Plan: 1 to create, 2 to update, 1 to remove.
 *
 * or `No changes.` Secrets and their hashes appear only as (sensitive).
 */
export function renderPlan(plan: Plan, output: PlanOutput): void {
  if (plan.changes.length === 0) {
    output.out('No changes.');
    return;
  }
  for (const change of plan.changes) {
    output.out(colorOf(output, change)(headerOf(change)));
    for (const field of change.fields) {
      const text = change.action === 'create' ? show(field.new) : `${show(field.old)} → ${show(field.new)}`;
      output.out(`    ${field.field}: ${text}`);
    }
  }
  if (plan.access.length > 0) {
    output.out('');
    output.out(output.color.bold('Access:'));
    for (const access of plan.access) output.out(accessLine(output, access));
  }
  output.out('');
  const { create, update, remove } = plan.summary;
  output.out(output.color.bold(`Plan: ${create} to create, ${update} to update, ${remove} to remove.`));
}
