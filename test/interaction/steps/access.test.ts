import { describe, expect, it } from 'vitest';
import { access } from '../../../src/interaction/steps/access.js';
import type { PendingAuthorization } from '../../../src/interaction/sign-in-state.js';
import type { ClientAccess, UserRecord } from '../../../src/model/index.js';
import { newIdentity, pending, session, signInDeps, summary, userRecord } from '../sign-in-fixtures.js';

const client = (rule: ClientAccess | null) => ({ clientId: 'web', name: 'Web', skipConsent: false, access: rule });
const sre: ClientAccess = { groups: ['sre', 'dev'], roles: null, secondFactor: null };
const admins: ClientAccess = { groups: null, roles: ['admin'], secondFactor: null };
const sreAdmins: ClientAccess = { groups: ['sre'], roles: ['admin'], secondFactor: null };
const toPage = '/access-denied ← /oauth2/authorize?client_id=web';

describe('access', () => {
  it.each<[string, PendingAuthorization, Partial<UserRecord>, string[], string, boolean]>([
    ['a client without a rule', pending(), {}, [], 'continue', false],
    ['a member of one of its groups', pending({ client: client(sre) }), {}, ['dev'], 'continue', false],
    ['in no group of the rule', pending({ client: client(sre) }), {}, ['ops'], toPage, true],
    ['in no group at all', pending({ client: client(sre) }), {}, [], toPage, true],
    [
      'in no group, prompt=none: no page',
      pending({ client: client(sre), prompt: ['none'] }),
      {},
      [],
      'refused: access_denied',
      true,
    ],
    ['a role the rule names', pending({ client: client(admins) }), { role: 'admin' }, [], 'continue', false],
    ['a role it does not name', pending({ client: client(admins) }), {}, [], toPage, true],
    ['group and role both', pending({ client: client(sreAdmins) }), { role: 'admin' }, ['sre'], 'continue', false],
    ['the group without the role', pending({ client: client(sreAdmins) }), {}, ['sre'], toPage, true],
    ['the role without the group', pending({ client: client(sreAdmins) }), { role: 'admin' }, [], toPage, true],
    [
      '"Back to" pressed: the request ends, recorded already',
      pending({ client: client(sre), accessDenied: true }),
      {},
      [],
      'refused: access_denied',
      false,
    ],
    [
      'access_denied=true only ever makes a request stricter',
      pending({ accessDenied: true }),
      {},
      [],
      'refused: access_denied',
      false,
    ],
  ])('%s → %s', async (_, request, user, groups, expected, recorded) => {
    const denials: string[] = [];
    const deps = signInDeps({
      groupsOf: async (sub) => (sub === 'alice' ? groups : []),
      recordAccessDenied: async (sub, clientId) => void denials.push(`${sub} ${clientId}`),
    });
    const identity = session({ user: userRecord(user) });
    expect(summary(await access({ identity, request }, deps))).toBe(expected);
    expect(denials).toEqual(recorded ? ['alice web'] : []);
  });

  it('keeps the request as it came on the way back, for "Use another account"', async () => {
    const params = { client_id: 'web', state: 's t', prompt: 'consent' };
    const result = await access(
      { identity: session(), request: pending({ client: client(sre), params }) },
      signInDeps(),
    );
    expect(summary(result)).toBe('/access-denied ← /oauth2/authorize?client_id=web&state=s+t&prompt=consent');
  });

  it('reads no groups for a client without a rule or a rule of roles alone', async () => {
    const deps = signInDeps({ groupsOf: () => Promise.reject(new Error('groups were read')) });
    const asAdmin = session({ user: userRecord({ role: 'admin' }) });
    expect(summary(await access({ identity: session(), request: pending() }, deps))).toBe('continue');
    expect(summary(await access({ identity: asAdmin, request: pending({ client: client(admins) }) }, deps))).toBe(
      'continue',
    );
  });

  it('lets a sign-in through the API pass: its authorization request is checked when the browser goes back', async () => {
    const deps = signInDeps({ groupsOf: () => Promise.reject(new Error('groups were read')) });
    expect(summary(await access({ identity: newIdentity(), request: null }, deps))).toBe('continue');
  });
});
