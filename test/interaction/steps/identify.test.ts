import { describe, expect, it } from 'vitest';
import { identify } from '../../../src/interaction/steps/identify.js';
import { newIdentity, now, pending, session, signInDeps, summary } from '../sign-in-fixtures.js';

const back = '/oauth2/authorize?client_id=web';
const backAfterNow = `${back}&auth_after=${now}`;

describe('identify', () => {
  // OIDC Core §3.1.2.1 prompt=login and max_age; §3.1.2.6 login_required under prompt=none.
  it.each([
    ['no session', null, pending(), `/login ← ${backAfterNow}`],
    ['no session, prompt=none', null, pending({ prompt: ['none'] }), 'refused: login_required'],
    ['a session', session(), pending(), 'continue'],
    [
      'a session, prompt=login (dropped on the way back)',
      session(),
      pending({ prompt: ['login', 'consent'], params: { client_id: 'web', prompt: 'login consent' } }),
      `/login ← ${back}&prompt=consent&auth_after=${now}`,
    ],
    ['a session older than max_age', session(), pending({ maxAge: 30 }), `/login ← ${backAfterNow}`],
    [
      'a session older than max_age, prompt=none',
      session(),
      pending({ maxAge: 30, prompt: ['none'] }),
      'refused: login_required',
    ],
    ['a session within max_age', session(), pending({ maxAge: 120 }), 'continue'],
    ['a session, max_age=0', session(), pending({ maxAge: 0 }), `/login ← ${backAfterNow}`],
    [
      'a session from before auth_after (the path back kept as it is)',
      session(),
      pending({ authAfter: now - 1000, params: { client_id: 'web', auth_after: String(now - 1000) } }),
      `/login ← ${back}&auth_after=${now - 1000}`,
    ],
    [
      'a session since auth_after, max_age=0 (no loop)',
      session({ authTime: now - 500 }),
      pending({ authAfter: now - 1000, maxAge: 0 }),
      'continue',
    ],
    [
      'a session since auth_after, prompt=login still asked',
      session({ authTime: now - 500 }),
      pending({ authAfter: now - 1000, prompt: ['login'] }),
      `/login ← ${backAfterNow}`,
    ],
  ])('%s → %s', async (_, identity, request, expected) => {
    expect(summary(identify({ identity, request }, signInDeps()))).toBe(expected);
  });

  it('passes the login_hint on to /login', async () => {
    const result = identify(
      { identity: null, request: pending({ params: { client_id: 'web', login_hint: 'alice@example.com' } }) },
      signInDeps(),
    );
    expect(summary(result)).toBe(
      `/login ← ${back}&login_hint=alice%40example.com&auth_after=${now} ?login_hint=alice%40example.com`,
    );
  });

  it('lets a new sign-in through the API pass: it has no request to check', async () => {
    const identity = newIdentity();
    expect(identify({ identity, request: null }, signInDeps())).toEqual({
      kind: 'continue',
      state: { identity, request: null },
    });
  });
});
