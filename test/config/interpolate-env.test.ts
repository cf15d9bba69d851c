import { describe, expect, it } from 'vitest';
import { expandReferences } from '../../src/config/interpolate-env.js';
import { load, secretLine, yaml } from './load-text.js';

const env = { HOST: 'db.internal', EMPTY: '', PORT: '5432' };

describe('expandReferences', () => {
  it.each([
    ['plain text', 'no references', 'no references'],
    ['a variable', 'postgres://${HOST}/idp', 'postgres://db.internal/idp'],
    ['two variables', '${HOST}:${PORT}', 'db.internal:5432'],
    ['a default for an unset variable', '${NOPE:-fallback}', 'fallback'],
    ['a default for an empty variable (shell semantics)', '${EMPTY:-fallback}', 'fallback'],
    ['an empty default', 'a${NOPE:-}b', 'ab'],
    ['a default with colons and slashes', '${NOPE:-http://localhost:8080}', 'http://localhost:8080'],
    ['a set-but-empty variable without default', 'a${EMPTY}b', 'ab'],
    ['an escaped reference', 'price: $${HOST}', 'price: ${HOST}'],
    ['a lone dollar', 'cost $5 and $', 'cost $5 and $'],
    ['an argon2 hash', '$argon2id$v=19$m=1,t=1,p=1$abc$def', '$argon2id$v=19$m=1,t=1,p=1$abc$def'],
  ])('%s', (_name, text, expected) => {
    expect(expandReferences(text, env)).toMatchObject({ text: expected, errors: [] });
  });

  it.each([
    ['an unset variable', '${NOPE}', 'environment variable NOPE is not set (write ${NOPE:-default} to give a default)'],
    ['an unclosed reference', 'x ${HOST', 'unclosed "${" (write "$${" for a literal "${")'],
    [
      'an invalid name',
      '${1ABC}',
      'a "${…}" that is not an environment reference: write ${NAME} or ${NAME:-default} (or "$${" for a literal "${")',
    ],
  ])('%s is an error', (_name, text, message) => {
    expect(expandReferences(text, env).errors).toEqual([message]);
  });

  it('reports every unset variable of one value', () => {
    expect(expandReferences('${A}/${B}', {}).errors).toHaveLength(2);
  });
});

describe('interpolation in a config file', () => {
  it('reads an unquoted reference that expands to a number or boolean as that type', () => {
    const result = load(yaml(secretLine, 'server:', '  port: ${PORT}', '  trust_proxy: ${TRUST:-true}'), {
      PORT: '9090',
    });
    expect(result.ok && result.config.server).toMatchObject({ port: 9090, trustProxy: { hops: 1 } });
  });

  it('keeps a quoted reference a string', () => {
    const result = load(yaml(secretLine, 'server:', '  port: "${PORT}"'), { PORT: '9090' });
    expect(result.ok ? [] : result.problems.map((p) => `${p.line}:${p.column} ${p.path} ${p.message}`)).toEqual([
      '3:9 server.port must be a whole number, not a string',
    ]);
  });

  it('never interpolates keys, and only string values', () => {
    const result = load(yaml(secretLine, 'frontend:', '  html_variables:', '    ${KEY}: ${VALUE}'), {
      KEY: 'k',
      VALUE: 'v',
    });
    expect(result.ok && result.config.frontend.htmlVariables).toEqual({ '${KEY}': 'v' });
  });

  it('names the variable and the config path of each unset reference', () => {
    const result = load(
      yaml(
        'clients:',
        '  - client_id: web',
        '    client_secret: ${WEB_SECRET}',
        '    redirect_uris: ["${APP_URL}/cb"]',
      ),
    );
    expect(
      result.ok
        ? []
        : result.problems
            .filter((p) => p.severity === 'error')
            .map((p) => `${p.line}:${p.column} ${p.path}: ${p.message}`),
    ).toEqual([
      '3:20 clients[0].client_secret: environment variable WEB_SECRET is not set (write ${WEB_SECRET:-default} to give a default)',
      '4:21 clients[0].redirect_uris[0]: environment variable APP_URL is not set (write ${APP_URL:-default} to give a default)',
    ]);
  });
});
