import { describe, expect, it } from 'vitest';
import { readClientCredentials } from '../../src/clients/index.js';

const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;

/** RFC 6749 §2.3: which method a request used, read from the header and the form; failures are data. */
describe('readClientCredentials', () => {
  it.each([
    [
      'Basic',
      basic('svc:s3cret'),
      undefined,
      undefined,
      { authMethod: 'client_secret_basic', clientId: 'svc', clientSecret: 's3cret' },
    ],
    [
      'Basic, form-urlencoded (§2.3.1)',
      basic('odd+id:a%2Bb%3Ac'),
      undefined,
      undefined,
      {
        authMethod: 'client_secret_basic',
        clientId: 'odd id',
        clientSecret: 'a+b:c',
        asSent: { clientId: 'odd+id', clientSecret: 'a%2Bb%3Ac' },
      },
    ],
    [
      'Basic not form-urlencoded (a lone %): as sent',
      basic('svc:50%+x:y'),
      undefined,
      undefined,
      {
        authMethod: 'client_secret_basic',
        clientId: 'svc',
        clientSecret: '50%+x:y',
      },
    ],
    [
      'Basic with a raw + and the body client_id as sent',
      basic('a+b:s+t'),
      'a+b',
      undefined,
      {
        authMethod: 'client_secret_basic',
        clientId: 'a b',
        clientSecret: 's t',
        asSent: { clientId: 'a+b', clientSecret: 's+t' },
      },
    ],
    [
      'Basic and the same client_id',
      basic('svc:s'),
      'svc',
      undefined,
      { authMethod: 'client_secret_basic', clientId: 'svc', clientSecret: 's' },
    ],
    [
      'the form with a secret',
      undefined,
      'post',
      's',
      { authMethod: 'client_secret_post', clientId: 'post', clientSecret: 's' },
    ],
    [
      'the form with an empty secret',
      undefined,
      'post',
      '',
      { authMethod: 'client_secret_post', clientId: 'post', clientSecret: '' },
    ],
    [
      'the form without a secret',
      undefined,
      'spa',
      undefined,
      { authMethod: 'none', clientId: 'spa', clientSecret: null },
    ],
  ])('reads %s', (_name, authorization, clientId, clientSecret, expected) => {
    expect(readClientCredentials(authorization, clientId, clientSecret)).toEqual(expected);
  });

  it.each([
    ['a header that is not Basic', 'Bearer x', undefined, undefined, 'invalid_client', true],
    ['Basic that is not base64', 'Basic !!!', undefined, undefined, 'invalid_client', true],
    ['Basic without a colon', basic('svc'), undefined, undefined, 'invalid_client', true],
    ['Basic and client_secret', basic('svc:s'), undefined, 's', 'invalid_request', true],
    ['Basic and another client_id', basic('svc:s'), 'web', undefined, 'invalid_request', true],
    ['nothing', undefined, undefined, undefined, 'invalid_client', false],
    ['an empty client_id', undefined, '', 's', 'invalid_client', false],
  ])('refuses %s', (_name, authorization, clientId, clientSecret, error, usedBasic) => {
    expect(readClientCredentials(authorization, clientId, clientSecret)).toMatchObject({
      error,
      usedBasic,
      description: expect.any(String),
    });
  });
});
