import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSignIn } from '../../src/interaction/run-sign-in.js';
import { signInSteps } from '../../src/interaction/sign-in-steps.js';
import { newIdentity, pending, session, signInDeps } from './sign-in-fixtures.js';

const documentedOrder =
  'identify → selectAccount → secondFactor → enrolSecondFactor → access → clientSecondFactor → emailVerified → terms → consent';

describe('the sign-in steps', () => {
  it('run in the documented order, and the docs say the same', () => {
    expect(signInSteps.map((step) => step.name).join(' → ')).toBe(documentedOrder);
    for (const doc of ['src/interaction/index.ts', 'docs/oidc.md'])
      expect(readFileSync(doc, 'utf8').includes(documentedOrder), doc).toBe(true);
  });
});

describe('runSignIn', () => {
  const noGrantsAsked = signInDeps({ grantedScopes: () => Promise.reject(new Error('consent was not reached')) });

  it('ends at the first step that does not pass', async () => {
    const noSession = await runSignIn({ identity: null, request: pending({ prompt: ['consent'] }) }, noGrantsAsked);
    expect(noSession).toMatchObject({ kind: 'page', location: expect.stringMatching(/^\/login\?/) });
    const choose = await runSignIn(
      { identity: session(), request: pending({ prompt: ['select_account', 'consent'] }) },
      noGrantsAsked,
    );
    expect(choose).toMatchObject({ kind: 'page', location: expect.stringMatching(/select_account=true$/) });
  });

  it('completes with the identity when every step passes', async () => {
    const identity = session();
    const deps = signInDeps({ grantedScopes: async () => ['openid', 'email'] });
    expect(await runSignIn({ identity, request: pending() }, deps)).toEqual({ kind: 'complete', identity });
  });

  it('runs a new sign-in without a request through the same list: only the second factor or its enrolment can stop it', async () => {
    const identity = newIdentity();
    expect(await runSignIn({ identity, request: null }, noGrantsAsked)).toEqual({ kind: 'complete', identity });
    const required = signInDeps({ secondFactorPolicy: 'required' });
    expect(await runSignIn({ identity, request: null }, required)).toEqual({ kind: 'second_factor_enrolment' });
    const withTotp = signInDeps({
      factors: {
        summarize: async (subs) =>
          new Map(subs.map((sub) => [sub, { totpRegistered: true, unusedRecoveryCodes: 0, passkeyCount: 0 }])),
      },
    });
    expect(await runSignIn({ identity, request: null }, withTotp)).toEqual({
      kind: 'second_factor',
      factors: ['totp'],
    });
    const completed = newIdentity({}, ['pwd', 'otp']);
    expect(
      await runSignIn({ identity: completed, request: null }, { ...withTotp, secondFactorPolicy: 'required' }),
    ).toEqual({ kind: 'complete', identity: completed });
  });
});
