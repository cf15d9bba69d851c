import { describe, expect, it } from 'vitest';
import { terms } from '../../../src/interaction/steps/terms.js';
import type { PendingAuthorization } from '../../../src/interaction/sign-in-state.js';
import type { OutstandingTerms } from '../../../src/accounts/user-terms.js';
import type { TermRecord } from '../../../src/model/index.js';
import { newIdentity, pending, session, signInDeps, summary } from '../sign-in-fixtures.js';

const term = (id: string, required: boolean, consentMode: 'explicit' | 'implicit'): TermRecord => ({
  id,
  required,
  consentMode,
  version: '2',
  content: { en: { title: id, type: 'link', content: 'https://example.com/' + id } },
  createdAt: 0,
  updatedAt: 0,
});
const none: OutstandingTerms = { required: [], optional: [], implicit: [] };
const toTerms = '/terms ← /oauth2/authorize?client_id=web';

describe('terms', () => {
  it.each<[string, PendingAuthorization, OutstandingTerms, string, string[]]>([
    ['everything accepted', pending(), none, 'continue', []],
    [
      'only an optional term is new: never forced',
      pending(),
      { ...none, optional: [term('news', false, 'explicit')] },
      'continue',
      [],
    ],
    [
      'a required term at a new version',
      pending(),
      { ...none, required: [term('tos', true, 'explicit')] },
      toTerms,
      [],
    ],
    [
      'a required term, prompt=none',
      pending({ prompt: ['none'] }),
      { ...none, required: [term('tos', true, 'explicit')] },
      'refused: interaction_required',
      [],
    ],
    [
      'an implicit term at a new version: the notice is shown',
      pending(),
      { ...none, implicit: [term('privacy', false, 'implicit')] },
      toTerms,
      [],
    ],
    [
      'an implicit term, prompt=none: recorded by going on',
      pending({ prompt: ['none'] }),
      { ...none, implicit: [term('privacy', false, 'implicit')] },
      'continue',
      ['privacy@2'],
    ],
    [
      'a required and an implicit term, prompt=none',
      pending({ prompt: ['none'] }),
      { ...none, required: [term('tos', true, 'explicit')], implicit: [term('privacy', false, 'implicit')] },
      'refused: interaction_required',
      [],
    ],
    [
      'declined on the terms page',
      pending({ termsDeclined: true }),
      { ...none, required: [term('tos', true, 'explicit')] },
      'refused: access_denied',
      [],
    ],
  ])('%s → %s', async (_, request, outstanding, expected, recorded) => {
    const accepted: string[] = [];
    const deps = signInDeps({
      terms: {
        outstanding: async (sub) => (sub === 'alice' ? outstanding : none),
        accept: async (_sub, list) => accepted.push(...list.map((t) => `${t.id}@${t.version}`)),
      },
    });
    expect(summary(await terms({ identity: session(), request }, deps))).toBe(expected);
    expect(accepted).toEqual(recorded);
  });

  it('lets a sign-in through the API pass: the authorization request that follows asks', async () => {
    const deps = signInDeps({
      terms: {
        outstanding: async () => ({ ...none, required: [term('tos', true, 'explicit')] }),
        accept: async () => [],
      },
    });
    expect((await terms({ identity: newIdentity(), request: null }, deps)).kind).toBe('continue');
  });
});
