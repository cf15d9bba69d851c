import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { requireBuild } from '../support/spawned-process.js';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');

/** The signing pool (from dist/) in a process of its own; the rest of its behaviour: signing-pool.test.ts. */
describe('the signing pool in a process of its own', () => {
  it('neither keeps an idle process alive nor lets it exit while a signature is owed', async () => {
    requireBuild();
    const moduleUrl = pathToFileURL(path.join(root, 'dist/keys/signing-pool.js')).href;
    // No close(): the process must end on its own once the signatures are
    // in, and must not end before (no output then). The second signature is
    // the telling one: a worker still starting keeps a process alive anyway,
    // a started idle one must not. An ES module script: workers inherit
    // --input-type=module, so the eval'd worker source must work as one.
    const script = `
      import { generateKeyPairSync } from 'node:crypto';
      import { createSigningPool } from ${JSON.stringify(moduleUrl)};
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const pool = createSigningPool();
      for (const input of ['a.b', 'a.c']) {
        console.log(Buffer.from(await pool.sign(privateKey, 'ES256', input), 'base64url').length);
      }
    `;
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        execFile(
          process.execPath,
          ['--input-type=module', '-e', script],
          { cwd: root, timeout: 5_000 },
          (error, out, err) => {
            resolve({ code: error ? (error.killed ? null : (error.code as number)) : 0, stdout: out, stderr: err });
          },
        );
      },
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.trim().split('\n')).toEqual(['64', '64']);
  });
});
