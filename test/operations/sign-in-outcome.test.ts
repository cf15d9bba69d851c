import { describe, expect, it } from 'vitest';
import type { EventType, NewEventRecord } from '../../src/model/index.js';
import { signInOutcome } from '../../src/operations/index.js';

const event = (type: EventType, detail: NewEventRecord['detail'], subject: string | null = 'u1'): NewEventRecord => ({
  time: 0,
  type,
  actor: subject ?? 'unknown',
  subject,
  clientAddress: '203.0.113.7',
  clientId: null,
  detail,
});

/** docs/operations.md, "Metrics": what each sign-in event counts as in idp_sign_ins_total. */
describe('signInOutcome', () => {
  it.each([
    ['a password', event('sign_in.succeeded', { amr: ['pwd'] }), { method: 'password', outcome: 'success' }],
    [
      'a passkey, passwordless',
      event('sign_in.succeeded', { amr: ['hwk'] }),
      { method: 'passkey', outcome: 'success' },
    ],
    ['an upstream', event('sign_in.succeeded', { amr: ['fed'] }), { method: 'upstream', outcome: 'success' }],
    [
      'a second factor after a password',
      event('sign_in.succeeded', { amr: ['pwd', 'otp'] }),
      { method: 'second_factor', outcome: 'success' },
    ],
    [
      'a passkey as second factor after an upstream',
      event('sign_in.succeeded', { amr: ['fed', 'hwk'] }),
      { method: 'second_factor', outcome: 'success' },
    ],
    [
      'a wrong password',
      event('sign_in.failed', { method: 'password' }, null),
      { method: 'password', outcome: 'failure' },
    ],
    [
      'a rate-limited password',
      event('sign_in.rate_limited', { method: 'password' }),
      { method: 'password', outcome: 'failure' },
    ],
    ['a wrong TOTP code', event('sign_in.failed', { method: 'totp' }), { method: 'second_factor', outcome: 'failure' }],
    [
      'a spent recovery code',
      event('sign_in.failed', { method: 'recovery_code' }),
      { method: 'second_factor', outcome: 'failure' },
    ],
    [
      'a passkey refused for a pending session',
      event('sign_in.failed', { method: 'passkey' }, 'u1'),
      { method: 'second_factor', outcome: 'failure' },
    ],
    [
      'a passwordless passkey refused',
      event('sign_in.failed', { method: 'passkey' }, null),
      { method: 'passkey', outcome: 'failure' },
    ],
  ])('%s', (_, input, expected) => {
    expect(signInOutcome(input)).toEqual(expected);
  });

  it.each([
    ['another event', event('sign_out', {})],
    ['a success without amr', event('sign_in.succeeded', {})],
    ['a success with an amr it does not know', event('sign_in.succeeded', { amr: ['sms'] })],
    ['a refusal of a method it does not know', event('sign_in.failed', { method: 'carrier_pigeon' })],
  ])('counts nothing for %s', (_, input) => {
    expect(signInOutcome(input)).toBeNull();
  });
});
