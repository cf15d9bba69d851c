import { describe, expect, it } from 'vitest';
import { planToJson, renderPlan, SENSITIVE, type Change, type Plan } from '../../src/gitops/index.js';
import { summarize, type PlanWrites } from '../../src/gitops/plan.js';
import { createCapturedOutput } from '../../src/cli/output.js';

const noWrites: PlanWrites = {
  users: { create: [], update: [], remove: [] },
  clients: { create: [], update: [], remove: [] },
  terms: { save: [], remove: [] },
  identityProviders: { save: [], remove: [] },
  groups: { save: [], remove: [] },
  memberships: { add: [], remove: [] },
  removedWithGroups: [],
  revocations: [],
};

function plan(changes: Change[]): Plan {
  return { changes, summary: summarize(changes), access: [], writes: noWrites };
}

const sample = plan([
  {
    kind: 'client',
    action: 'create',
    key: 'web',
    fields: [
      { field: 'name', old: null, new: 'Web' },
      { field: 'client_secret', old: null, new: SENSITIVE },
      { field: 'redirect_uris', old: null, new: ['https://web.example/cb'] },
    ],
  },
  {
    kind: 'user',
    action: 'update',
    key: 'alice',
    fields: [
      { field: 'role', old: 'user', new: 'admin' },
      { field: 'password_hash', old: SENSITIVE, new: SENSITIVE },
    ],
  },
  { kind: 'user', action: 'remove', key: 'bob', fields: [] },
]);

describe('renderPlan', () => {
  it('prints + create, ~ update with old → new, - remove, then the count line', () => {
    const output = createCapturedOutput();
    renderPlan(sample, output);
    expect(output.stdout).toEqual([
      '+ client web',
      '    name: "Web"',
      '    client_secret: (sensitive)',
      '    redirect_uris: ["https://web.example/cb"]',
      '~ user alice',
      '    role: "user" → "admin"',
      '    password_hash: (sensitive) → (sensitive)',
      '- user bob',
      '',
      'Plan: 1 to create, 1 to update, 1 to remove.',
    ]);
  });

  it('says "No changes." for an empty plan', () => {
    const output = createCapturedOutput();
    renderPlan(plan([]), output);
    expect(output.stdout).toEqual(['No changes.']);
  });
});

describe('planToJson', () => {
  it('is stable and carries no writes', () => {
    const parsed = JSON.parse(planToJson(sample));
    expect(Object.keys(parsed)).toEqual(['format_version', 'changes', 'summary']);
    expect(parsed.summary).toEqual({ create: 1, update: 1, remove: 1 });
    expect(parsed.changes[1]).toEqual({
      kind: 'user',
      action: 'update',
      key: 'alice',
      fields: [
        { field: 'role', old: 'user', new: 'admin' },
        { field: 'password_hash', old: '(sensitive)', new: '(sensitive)' },
      ],
    });
    expect(planToJson(sample)).toBe(planToJson(sample));
  });
});
