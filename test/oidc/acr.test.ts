import { describe, expect, it } from 'vitest';
import { acrOf, requiredAcr } from '../../src/oidc/acr.js';

describe('acrOf', () => {
  it.each([
    [['pwd'], 'aal1'],
    [['fed'], 'aal1'],
    [[], 'aal1'],
    [['pwd', 'otp'], 'aal2'],
    [['pwd', 'hwk'], 'aal2'],
    [['hwk'], 'aal2'],
  ])('%j is %s', (amr, acr) => {
    expect(acrOf(amr)).toBe(acr);
  });
});

describe('requiredAcr', () => {
  const essential = (...values: unknown[]) => ({ essential: true, values });
  it.each([
    ['aal2', undefined, 'aal2'],
    ['urn:example:other aal2', undefined, 'aal2'],
    ['aal2 aal1', undefined, null],
    ['aal1', undefined, null],
    ['urn:example:other', undefined, null],
    [undefined, undefined, null],
    [undefined, essential('aal2'), 'aal2'],
    [undefined, essential('aal2', 'aal1'), null],
    [undefined, essential(), null],
    [undefined, { essential: false, values: ['aal2'] }, null],
    ['aal1', essential('aal2'), 'aal2'],
  ] as const)('acr_values %s with the acr claim %j → %s', (acrValues, claim, required) => {
    expect(requiredAcr(acrValues, claim && { essential: claim.essential, values: [...claim.values] })).toBe(required);
  });
});
