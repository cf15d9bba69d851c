import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { DatabaseConfig } from '../../src/config/types.js';
import { main } from '../../src/cli/main.js';
import { createCapturedOutput } from '../../src/cli/output.js';
import { testPasswordHash } from '../support/config-fixture.js';

/** The client secret the generated configs use; no output may ever contain it. */
export const clientSecret = 'cli-test-client-secret-0123456789';

export interface CliUser {
  sub: string;
  email?: string;
  role?: 'user' | 'admin';
  /** Profile fields, written as is (name, given_name, family_name, locale). */
  profile?: Record<string, string>;
  /** `users[].groups`. */
  groups?: string[];
}

/**
 * A config file (YAML, the real loader reads it) for the given database and
 * users; `more.clients` replaces the one client `web`, `more.groups` adds
 * a `groups` block (both YAML list items, as written).
 */
export function gitopsYaml(
  database: DatabaseConfig,
  users: CliUser[],
  more: { clients?: string; groups?: string } = {},
): string {
  const db =
    database.client === 'sqlite'
      ? `database:\n  client: sqlite\n  filename: ${JSON.stringify(database.filename)}\n`
      : `database:\n  client: postgres\n  url: ${JSON.stringify(database.url)}\n`;
  const userLines = users
    .map((u) => {
      const profile = Object.entries(u.profile ?? {}).map(
        ([field, value]) => `    ${field}: ${JSON.stringify(value)}\n`,
      );
      const groups = u.groups ? `    groups: [${u.groups.join(', ')}]\n` : '';
      return `  - sub: ${u.sub}\n    email: ${u.email ?? `${u.sub}@example.com`}\n    role: ${u.role ?? 'user'}\n    password_hash: "${testPasswordHash}"\n${profile.join('')}${groups}`;
    })
    .join('');
  return [
    'security:\n  secret: "0123456789abcdef0123456789abcdef"\n',
    db,
    users.length > 0 ? `users:\n${userLines}` : 'users: []\n',
    `clients:\n${more.clients ?? '  - client_id: web\n    name: Web app\n    client_secret: ${WEB_SECRET}\n    redirect_uris: [https://web.example.com/callback]\n'}`,
    more.groups !== undefined ? `groups:\n${more.groups}` : '',
  ].join('');
}

export function makeWorkdir(): { dir: string; write(name: string, text: string): string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idp-gitops-cli-'));
  return {
    dir,
    write(name, text) {
      writeFileSync(path.join(dir, name), text);
      return name;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs `idp …` in process, stdin from `input` (not a TTY). */
export async function runIdp(args: string[], cwd: string, input = '') {
  const output = createCapturedOutput();
  const code = await main(args, { output, env: { WEB_SECRET: clientSecret }, cwd, stdin: Readable.from([input]) });
  return { code, stdout: output.stdout, stderr: output.stderr, all: [...output.stdout, ...output.stderr].join('\n') };
}
