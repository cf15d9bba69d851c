import { describe, expect, it } from 'vitest';
import { selectAccount } from '../../../src/interaction/steps/select-account.js';
import { newIdentity, pending, session, summary } from '../sign-in-fixtures.js';

describe('selectAccount', () => {
  it.each([
    ['no prompt', pending(), 'continue'],
    ['prompt=login alone', pending({ prompt: ['login'] }), 'continue'],
    [
      'prompt=select_account (dropped on the way back)',
      pending({ prompt: ['select_account'], params: { client_id: 'web', prompt: 'select_account' } }),
      '/login ← /oauth2/authorize?client_id=web ?select_account=true',
    ],
    [
      'prompt=select_account consent, with a login_hint',
      pending({
        prompt: ['select_account', 'consent'],
        params: { client_id: 'web', prompt: 'select_account consent', login_hint: 'a@example.com' },
      }),
      '/login ← /oauth2/authorize?client_id=web&prompt=consent&login_hint=a%40example.com ?login_hint=a%40example.com&select_account=true',
    ],
  ])('%s → %s', (_, request, expected) => {
    expect(summary(selectAccount({ identity: session(), request }))).toBe(expected);
  });

  it('lets a sign-in through the API pass', () => {
    expect(selectAccount({ identity: newIdentity(), request: null }).kind).toBe('continue');
  });
});
