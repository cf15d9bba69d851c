import type { ReadStream } from 'node:tty';
import type { CliContext } from '../context.js';
import { readStdin } from '../context.js';
import { CliError } from '../output.js';
import { readPassword } from '../admin/read-password.js';
import { hashPassword } from '../../accounts/passwords.js';

/**
 * `idp hash-password`: prints the argon2id PHC string of a password for a
 * config user's `password_hash`. The password comes from a prompt without
 * echo (asked twice) on a terminal, else from stdin without one trailing
 * newline; never from argv, where shell history and `ps` would keep it.
 */
export async function runHashPassword(ctx: CliContext): Promise<number> {
  const password = (ctx.stdin as Partial<ReadStream>).isTTY
    ? await readPassword(ctx, { fromStdin: false, prompt: 'Password:', confirm: true })
    : await readPasswordFromPipe(ctx);
  ctx.output.out(await hashPassword(password));
  return 0;
}

async function readPasswordFromPipe(ctx: CliContext): Promise<string> {
  const password = (await readStdin(ctx.stdin)).replace(/\r?\n$/, '');
  if (password === '')
    throw new CliError('stdin is empty: pipe the password in, e.g. printf %s "$PASSWORD" | idp hash-password');
  return password;
}
