import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import argon2 from 'argon2';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadConfig } from '../src/config/index.js';

const root = path.resolve(fileURLToPath(import.meta.url), '../..');
const examples = readdirSync(path.join(root, 'examples')).filter((name) => name.endsWith('.yaml'));

/** Every ${NAME} an example references without a default, set to a plausible value. */
function environmentFor(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [, name] of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    if (name.endsWith('_URL')) env[name] = 'postgres://idp@127.0.0.1:5432/idp';
    else if (name.endsWith('_HASH'))
      env[name] = '$argon2id$v=19$m=65536,p=4,t=3$31RLZlALzHw6P3fZ/PPkRg$6pRwRsiPRsP4hgJ78sKSa5ppEF+vPen8qV7f4YDY/as';
    else env[name] = `${name.toLowerCase()}-value-long-enough-for-a-secret`;
  }
  return env;
}

describe('examples/', () => {
  it('has the quickstart and at least two realistic examples', () => {
    expect(examples).toContain('quickstart.yaml');
    expect(examples.length).toBeGreaterThanOrEqual(3);
  });

  it.each(examples)('%s is valid, without warnings, and names the schema for editors', async (name) => {
    const text = readFileSync(path.join(root, 'examples', name), 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/config.schema.json');
    const result = await loadConfig({ file: `examples/${name}`, env: environmentFor(text), cwd: root });
    expect(result.ok ? result.warnings.map(formatProblem) : result.problems.map(formatProblem)).toEqual([]);
  });

  it('quickstart.yaml runs as is: no environment needed, a demo admin whose password is the documented one, a public and a confidential client on localhost', async () => {
    const result = await loadConfig({ file: 'examples/quickstart.yaml', env: {}, cwd: root });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const admin = result.config.users.find((u) => u.role === 'admin');
    expect(admin?.passwordHash).toBeTruthy();
    expect(await argon2.verify(admin!.passwordHash!, 'demo-admin-password')).toBe(true);
    const methods = result.config.clients.map((c) => c.tokenEndpointAuthMethod);
    expect(methods).toContain('none');
    expect(methods.some((m) => m !== 'none')).toBe(true);
    for (const client of result.config.clients)
      for (const uri of client.redirectUris) expect(new URL(uri).hostname).toBe('localhost');
    expect(result.config.database.filename).toBe(path.join(root, 'examples/quickstart.sqlite'));
  });

  it('internal-apps.yaml: every client has an access rule and may ask for the groups scope; members come from both sides', async () => {
    const text = readFileSync(path.join(root, 'examples/internal-apps.yaml'), 'utf8');
    const result = await loadConfig({ file: 'examples/internal-apps.yaml', env: environmentFor(text), cwd: root });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    for (const client of result.config.clients) {
      expect(client.access?.groups?.length, client.clientId).toBeGreaterThan(0);
      expect(client.scopes, client.clientId).toContain('groups');
    }
    expect(Object.fromEntries(result.config.groups.map((g) => [g.id, g.members]))).toEqual({
      sre: ['alice', 'bob'],
      developers: ['carol'],
      auditors: [],
    });
  });
});
