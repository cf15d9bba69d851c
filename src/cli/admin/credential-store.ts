import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CliError } from '../output.js';

/** What `idp admin login` keeps between commands: the server and its session cookie. */
export interface Credentials {
  url: string;
  cookie: string;
}

/**
 * `$XDG_CONFIG_HOME/idp/credentials.json`, else `~/.config/idp/credentials.json`
 * (XDG Base Directory spec: a relative XDG_CONFIG_HOME is invalid and ignored).
 */
export function credentialsPath(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'idp', 'credentials.json');
}

/** The stored credentials, or null when nobody is logged in. */
export async function loadCredentials(env: NodeJS.ProcessEnv): Promise<Credentials | null> {
  const file = credentialsPath(env);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const parsed = parseCredentials(text);
  if (!parsed) throw new CliError(`${file} is not valid idp credentials: run \`idp admin login\` again`);
  return parsed;
}

/**
 * Writes atomically: a private temporary file (0600) in the same 0700
 * directory, then rename, so a crash never leaves half a cookie behind and
 * no other local user can read it at any moment.
 */
export async function saveCredentials(env: NodeJS.ProcessEnv, credentials: Credentials): Promise<string> {
  const file = credentialsPath(env);
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir keeps the mode of a directory that already existed.
  await chmod(dir, 0o700);
  const temporary = path.join(dir, `.credentials.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(credentials, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return file;
}

export async function removeCredentials(env: NodeJS.ProcessEnv): Promise<void> {
  await rm(credentialsPath(env), { force: true });
}

function parseCredentials(text: string): Credentials | null {
  try {
    const value = JSON.parse(text) as Partial<Credentials>;
    if (typeof value.url !== 'string' || typeof value.cookie !== 'string') return null;
    return { url: value.url, cookie: value.cookie };
  } catch {
    return null;
  }
}
