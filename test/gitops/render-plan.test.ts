import { describe, expect, it } from 'vitest';
import {
  planToJson,
  renderPlan,
  SENSITIVE,
  type AccessChange,
  type Change,
  type Plan,
} from '../../src/gitops/index.js';
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

function plan(changes: Change[], access: AccessChange[] = []): Plan {
  return { changes, summary: summarize(changes), access, writes: noWrites };
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
    expect(Object.keys(parsed)).toEqual(['format_version', 'changes', 'summary', 'access']);
    expect(parsed.format_version).toBe(1);
    expect(parsed.access).toEqual([]);
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

const groups = plan(
  [
    {
      kind: 'client',
      action: 'update',
      key: 'grafana',
      fields: [{ field: 'access', old: null, new: { groups: ['sre'], second_factor: 'required' } }],
    },
    {
      kind: 'group',
      action: 'create',
      key: 'dev',
      fields: [
        { field: 'name', old: null, new: 'Developers' },
        { field: 'description', old: null, new: null },
        { field: 'upstream', old: null, new: [] },
        { field: 'members', old: null, new: ['alice', 'carol'] },
      ],
    },
    {
      kind: 'group',
      action: 'update',
      key: 'ops',
      fields: [{ field: 'name', old: 'ops', new: 'Operations' }],
      members: { added: ['carol'], removed: ['bob', 'dave'] },
    },
    { kind: 'group', action: 'update', key: 'sre', fields: [], members: { added: ['carol'], removed: [] } },
    { kind: 'group', action: 'remove', key: 'old', fields: [] },
  ],
  [
    { clientId: 'grafana', sub: 'bob', email: 'bob@example.com', change: 'lose', activeGrants: 3 },
    { clientId: 'grafana', sub: 'dave', email: 'dave@example.com', change: 'lose', activeGrants: 1 },
    { clientId: 'grafana', sub: 'erin', email: 'erin@example.com', change: 'lose', activeGrants: 0 },
    { clientId: 'grafana', sub: 'carol', email: 'carol@example.com', change: 'gain', activeGrants: null },
    // A forward-auth app: no grants.
    { clientId: 'ops.example.com', sub: 'bob', email: 'bob@example.com', change: 'lose', activeGrants: null },
  ],
);

describe('groups and the access section', () => {
  it('shows member changes on the group line, its field changes below, then the access section', () => {
    const output = createCapturedOutput();
    renderPlan(groups, output);
    expect(output.stdout).toEqual([
      '~ client grafana',
      '    access: null → {"groups":["sre"],"second_factor":"required"}',
      '+ group dev',
      '    name: "Developers"',
      '    description: null',
      '    upstream: []',
      '    members: ["alice","carol"]',
      '~ group ops: + carol, - bob, - dave',
      '    name: "ops" → "Operations"',
      '~ group sre: + carol',
      '- group old',
      '',
      'Access:',
      '- bob loses grafana (3 active grants)',
      '- dave loses grafana (1 active grant)',
      '- erin loses grafana (0 active grants)',
      '+ carol gains grafana',
      '- bob loses ops.example.com',
      '',
      'Plan: 1 to create, 3 to update, 1 to remove.',
    ]);
  });

  it('puts member changes and the access list in the JSON form', () => {
    const parsed = JSON.parse(planToJson(groups));
    expect(parsed.changes[2]).toEqual({
      kind: 'group',
      action: 'update',
      key: 'ops',
      fields: [{ field: 'name', old: 'ops', new: 'Operations' }],
      members: { added: ['carol'], removed: ['bob', 'dave'] },
    });
    expect(Object.keys(parsed.changes[1])).toEqual(['kind', 'action', 'key', 'fields']);
    expect(parsed.access[0]).toEqual({
      client_id: 'grafana',
      sub: 'bob',
      email: 'bob@example.com',
      change: 'lose',
      active_grants: 3,
    });
    expect(parsed.access[3]).toEqual({
      client_id: 'grafana',
      sub: 'carol',
      email: 'carol@example.com',
      change: 'gain',
      active_grants: null,
    });
  });
});
