import { describe, expect, it } from 'vitest';
import type { ClientAccess } from '../../../src/model/index.js';
import { clientSecondFactor } from '../../../src/interaction/steps/client-second-factor.js';
import type { Prompt } from '../../../src/interaction/sign-in-state.js';
import { newIdentity, pending, session, summary } from '../sign-in-fixtures.js';

const requires: ClientAccess = { groups: null, roles: null, secondFactor: 'required' };
const rolesOnly: ClientAccess = { groups: null, roles: ['admin'], secondFactor: null };
const back = '/oauth2/authorize?client_id=web';
const stepUp = `/login/second-factor ← ${back} ?step_up=true`;

describe('clientSecondFactor', () => {
  // clients[].access.second_factor: required asks for otp or hwk in the session's amr (docs/oidc.md, "Interaction").
  it.each([
    [null, ['pwd'], [], 'continue'],
    [rolesOnly, ['pwd'], [], 'continue'],
    [requires, ['pwd', 'otp'], [], 'continue'],
    [requires, ['hwk'], [], 'continue'],
    [requires, ['fed', 'otp'], [], 'continue'],
    [requires, ['pwd'], [], stepUp],
    [requires, ['fed'], [], stepUp],
    [requires, [], [], stepUp],
    [requires, ['pwd'], ['none'], 'refused: interaction_required'],
    [requires, ['pwd', 'otp'], ['none'], 'continue'],
  ] as [ClientAccess | null, string[], Prompt[], string][])(
    'access %j, a session with amr %j, prompt %j → %s',
    (access, amr, prompt, expected) => {
      const request = pending({ prompt, client: { clientId: 'web', name: 'Web', skipConsent: false, access } });
      expect(summary(clientSecondFactor({ identity: session({ amr }), request }))).toBe(expected);
    },
  );

  // acr_values=aal2 or an essential acr claim for aal2 (docs/oidc.md, "Authentication context") asks the same of any client.
  it.each([
    [['pwd'], [], stepUp],
    [['fed'], [], stepUp],
    [['pwd', 'otp'], [], 'continue'],
    [['hwk'], [], 'continue'],
    [['pwd'], ['none'], 'refused: interaction_required'],
  ] as [string[], Prompt[], string][])(
    'a request for acr aal2, a session with amr %j, prompt %j → %s',
    (amr, prompt, expected) => {
      const request = pending({ prompt, requiredAcr: 'aal2' });
      expect(summary(clientSecondFactor({ identity: session({ amr }), request }))).toBe(expected);
    },
  );

  it('says why under prompt=none: the client, or the request', () => {
    const identity = session({ amr: ['pwd'] });
    const byRequest = clientSecondFactor({ identity, request: pending({ prompt: ['none'], requiredAcr: 'aal2' }) });
    expect(byRequest).toMatchObject({ description: 'The request asks for acr aal2, a sign-in with a second factor.' });
    const client = { clientId: 'web', name: 'Web', skipConsent: false, access: requires };
    const byClient = clientSecondFactor({
      identity,
      request: pending({ prompt: ['none'], requiredAcr: 'aal2', client }),
    });
    expect(byClient).toMatchObject({ description: 'The client requires a second factor.' });
  });

  it('lets a sign-in through the API pass: it has no client to ask', () => {
    expect(summary(clientSecondFactor({ identity: newIdentity(), request: null }))).toBe('continue');
  });

  it('keeps the request on the way back, prompt and all, so the steps run again on it', () => {
    const request = pending({
      prompt: ['consent'],
      params: { client_id: 'web', prompt: 'consent', state: 'x y' },
      client: { clientId: 'web', name: 'Web', skipConsent: false, access: requires },
    });
    const result = clientSecondFactor({ identity: session(), request });
    expect(result).toEqual({
      kind: 'page',
      location: `/login/second-factor?return_to=${encodeURIComponent('/oauth2/authorize?client_id=web&prompt=consent&state=x+y')}&step_up=true`,
    });
  });
});
