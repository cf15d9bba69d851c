import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

/**
 * The pages' scripts (src/web/public/ui/*.js) are plain ES modules shipped
 * as they are, with JSDoc types (`// @ts-check`): the TypeScript compiler
 * checks them strictly against the DOM through tsconfig.ui.json (also run
 * by `npm run typecheck`), as the build checks src/.
 */
describe("the built-in pages' scripts", () => {
  it('type-check strictly', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const result = await execa(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.ui.json'), '--listFilesOnly'], {
      reject: false,
      shell: false,
    });
    const scripts = result.stdout.split('\n').filter((file) => file.includes('src/web/public/ui/'));
    expect(scripts.length).toBeGreaterThan(5);
    const checked = await execa(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.ui.json')], {
      reject: false,
      shell: false,
    });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.exitCode).toBe(0);
  }, 60_000);
});
