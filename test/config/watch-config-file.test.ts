import { writeFileSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchConfigFile, type ConfigFileWatcher } from '../../src/config/watch-config-file.js';

/** `serve --watch`: a change of the file's contents, however it is made, and nothing else. */
describe('watchConfigFile', () => {
  let dir: string;
  let file: string;
  let watcher: ConfigFileWatcher | undefined;
  let changes: number;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-watch-'));
    file = path.join(dir, 'idp.yaml');
    await writeFile(file, 'a: 1\n');
    changes = 0;
    watcher = await watchConfigFile({
      file,
      debounceMs: 50,
      onChange: () => changes++,
      onError: (error) => {
        throw error;
      },
    });
  });
  afterEach(async () => {
    watcher?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

  it('reports an edit in place, a new file renamed over it, and the file going and coming back', async () => {
    await writeFile(file, 'a: 2\n');
    await settle();
    expect(changes).toBe(1);
    await writeFile(path.join(dir, '.idp.yaml.swp'), 'a: 3\n');
    await rename(path.join(dir, '.idp.yaml.swp'), file);
    await settle();
    expect(changes).toBe(2);
    await rm(file);
    await settle();
    expect(changes).toBe(3);
    await writeFile(file, 'a: 3\n');
    await settle();
    expect(changes).toBe(4);
  });

  it('ignores other files, writes of the same contents, and a burst within the debounce beyond one change', async () => {
    await writeFile(path.join(dir, 'other.txt'), 'x');
    await writeFile(file, 'a: 1\n');
    await settle();
    expect(changes).toBe(0);
    // Synchronous writes: a burst well inside the debounce, however loaded the machine.
    for (let i = 0; i < 5; i++) writeFileSync(file, `a: ${10 + i}\n`);
    await settle();
    expect(changes).toBe(1);
  });

  it('stops reporting once closed', async () => {
    watcher!.close();
    await writeFile(file, 'a: 5\n');
    await settle();
    expect(changes).toBe(0);
  });
});
