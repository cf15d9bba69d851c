import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  credentialsPath,
  loadCredentials,
  removeCredentials,
  saveCredentials,
} from '../../../src/cli/admin/credential-store.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'idp-credentials-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('credentialsPath', () => {
  it.each([
    [
      'an absolute XDG_CONFIG_HOME',
      { XDG_CONFIG_HOME: '/x/config', HOME: '/home/ada' },
      '/x/config/idp/credentials.json',
    ],
    ['no XDG_CONFIG_HOME', { HOME: '/home/ada' }, '/home/ada/.config/idp/credentials.json'],
    ['an empty XDG_CONFIG_HOME', { XDG_CONFIG_HOME: '', HOME: '/home/ada' }, '/home/ada/.config/idp/credentials.json'],
    [
      'a relative XDG_CONFIG_HOME (invalid per the XDG spec)',
      { XDG_CONFIG_HOME: 'rel', HOME: '/home/ada' },
      '/home/ada/.config/idp/credentials.json',
    ],
  ])('with %s', (_, env, expected) => {
    expect(credentialsPath(env)).toBe(expected);
  });
});

describe('the credential store', () => {
  it('writes { url, cookie } into a 0700 directory as a 0600 file, and reads it back', async () => {
    const env = { XDG_CONFIG_HOME: home };
    const file = await saveCredentials(env, { url: 'http://127.0.0.1:1234', cookie: 'session=abc' });
    expect(file).toBe(path.join(home, 'idp', 'credentials.json'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ url: 'http://127.0.0.1:1234', cookie: 'session=abc' });
    expect(await loadCredentials(env)).toEqual({ url: 'http://127.0.0.1:1234', cookie: 'session=abc' });
  });

  it('falls back to ~/.config/idp and tightens a directory that was too open', async () => {
    await mkdir(path.join(home, '.config', 'idp'), { recursive: true, mode: 0o755 });
    const file = await saveCredentials({ HOME: home }, { url: 'http://a', cookie: 'session=1' });
    expect(file).toBe(path.join(home, '.config', 'idp', 'credentials.json'));
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
  });

  it('replaces the file by rename, leaving no temporary file and keeping 0600', async () => {
    const env = { XDG_CONFIG_HOME: home };
    await saveCredentials(env, { url: 'http://a', cookie: 'session=1' });
    const file = await saveCredentials(env, { url: 'http://b', cookie: 'session=2' });
    expect(await readdir(path.dirname(file))).toEqual(['credentials.json']);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await loadCredentials(env)).toEqual({ url: 'http://b', cookie: 'session=2' });
  });

  it('answers null when nobody is logged in, and after removal', async () => {
    const env = { XDG_CONFIG_HOME: home };
    expect(await loadCredentials(env)).toBeNull();
    await saveCredentials(env, { url: 'http://a', cookie: 'session=1' });
    await removeCredentials(env);
    expect(await loadCredentials(env)).toBeNull();
    await removeCredentials(env);
  });

  it('refuses a damaged file with a one-line hint', async () => {
    const env = { XDG_CONFIG_HOME: home };
    await mkdir(path.join(home, 'idp'));
    await writeFile(path.join(home, 'idp', 'credentials.json'), '{"url": 3}');
    await expect(loadCredentials(env)).rejects.toThrow(/is not valid idp credentials: run `idp admin login` again/);
  });
});
