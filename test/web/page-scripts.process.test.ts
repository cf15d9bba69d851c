import { readdirSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { builtinUiDirectory } from '../../src/web/index.js';

/**
 * The pages' scripts (src/web/public/ui/*.js) are plain ES modules shipped
 * as they are, with JSDoc types (`// @ts-check`): the TypeScript compiler
 * checks them strictly against the DOM here, as the build checks src/.
 */
describe("the built-in pages' scripts", () => {
  it('type-check strictly', async () => {
    const tsc = path.resolve(import.meta.dirname, '../../node_modules/typescript/bin/tsc');
    const scripts = readdirSync(path.join(builtinUiDirectory, 'ui'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => path.join(builtinUiDirectory, 'ui', name));
    expect(scripts.length).toBeGreaterThan(5);
    const result = await execa(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--allowJs',
        '--checkJs',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'esnext',
        '--moduleResolution',
        'bundler',
        '--lib',
        'es2022,dom,dom.iterable',
        ...scripts,
      ],
      { reject: false, shell: false },
    );
    expect(result.stdout + result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
  }, 60_000);
});
