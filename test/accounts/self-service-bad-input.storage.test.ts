import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases.js';
import { closedPort } from '../support/smtp-sink.js';
import { createTestApp, inject, type TestApp } from '../support/test-app.js';
import { mailConfig } from './mail-app.js';

/**
 * Issue 11, Bad input (fast-check): whatever JSON the self-service routes
 * get (wrong types, over-long fields, odd e-mails, any Unicode), they
 * answer a 2xx or a 4xx `{ code, message }` from their documented list,
 * never a 5xx, on both databases.
 */
const routes = [
  { url: '/api/auth/register', keys: ['email', 'password', 'accepted_terms'], statuses: [201, 400, 403, 409] },
  { url: '/api/auth/email/verify', keys: ['token'], statuses: [200, 400] },
  { url: '/api/auth/email/resend', keys: ['email'], statuses: [202, 400, 429] },
  { url: '/api/auth/password/forgot', keys: ['email'], statuses: [202, 400, 429] },
  { url: '/api/auth/password/reset', keys: ['token', 'password'], statuses: [204, 400] },
];

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ minLength: 300, maxLength: 700 }),
);
const email = fc.oneof(
  fc.emailAddress(),
  text,
  fc.tuple(text, text).map(([a, b]) => `${a}@${b}`),
  fc.emailAddress().map((e) => `${'x'.repeat(320)}${e}`),
);
const anyValue = fc.oneof(
  text,
  email,
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(text, { maxLength: 3 }),
  fc.dictionary(text, text, { maxKeys: 2 }),
);

describe.each(databaseKinds)('self-service routes under arbitrary bodies on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // The mails go nowhere: only the answers matter here.
    t = await createTestApp(kind, mailConfig(await closedPort()));
  });
  afterAll(() => t.destroy());

  it.each(routes)('$url answers 2xx or a documented 4xx, never 5xx', async ({ url, keys, statuses }) => {
    const body = fc.oneof(
      fc.record(Object.fromEntries(keys.map((key) => [key, fc.oneof(anyValue, key === 'email' ? email : text)])), {
        requiredKeys: [],
      }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.ipV4(), async (payload, address) => {
        const response = await inject(t, 'POST', url, undefined, JSON.stringify(payload), {
          'content-type': 'application/json',
          'x-forwarded-for': address,
        });
        expect(statuses).toContain(response.statusCode);
        if (response.statusCode >= 400)
          expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }),
      { numRuns: 40 },
    );
  });
});
