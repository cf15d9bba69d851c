import type { ReadStream } from 'node:tty';
import { readStdin, type CliContext } from '../context.js';
import { CliError } from '../output.js';

export interface PasswordSource {
  /** --password-stdin: read the whole of stdin, without its final newline. */
  fromStdin: boolean;
  /** The line shown before a hidden prompt. */
  prompt: string;
  /** Ask twice (when setting a password, not when logging in). */
  confirm: boolean;
}

/**
 * A password from stdin or from a prompt that does not echo. Never from
 * argv: a password on the command line lands in shell history and `ps`.
 */
export async function readPassword(ctx: CliContext, source: PasswordSource): Promise<string> {
  if (source.fromStdin) return readPasswordFromStdin(ctx);
  const terminal = ctx.stdin as Partial<ReadStream>;
  if (!terminal.isTTY || typeof terminal.setRawMode !== 'function') {
    throw new CliError('no terminal to prompt for the password: pipe it in with --password-stdin', 2);
  }
  const password = await promptHidden(terminal as ReadStream, () => ctx.output.err(source.prompt));
  if (password === '') throw new CliError('the password is empty');
  if (source.confirm) {
    const repeated = await promptHidden(terminal as ReadStream, () => ctx.output.err('Repeat the password:'));
    if (repeated !== password) throw new CliError('the two passwords do not match');
  }
  return password;
}

/** A line typed at the terminal without echo, or null when there is no terminal to ask at. */
export async function promptHiddenLine(ctx: CliContext, prompt: string): Promise<string | null> {
  const terminal = ctx.stdin as Partial<ReadStream>;
  if (!terminal.isTTY || typeof terminal.setRawMode !== 'function') return null;
  return promptHidden(terminal as ReadStream, () => ctx.output.err(prompt));
}

async function readPasswordFromStdin(ctx: CliContext): Promise<string> {
  // Only the newline that `echo` or a here-string adds is dropped; spaces are part of the password.
  const password = (await readStdin(ctx.stdin)).replace(/\r?\n$/, '');
  if (password === '')
    throw new CliError('--password-stdin: stdin is empty (try: printf %s "$PASSWORD" | idp admin …)');
  return password;
}

/**
 * Reads one line in raw mode, so nothing typed is echoed. Ctrl-C cancels.
 * The prompt is shown only once echo is off: what is typed as soon as it
 * appears must not reach the screen.
 */
function promptHidden(terminal: ReadStream, showPrompt: () => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    const wasRaw = terminal.isRaw;
    const finish = (error?: Error) => {
      terminal.off('data', onData);
      terminal.setRawMode(wasRaw);
      terminal.pause();
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      const text = chunk.toString();
      // An arrow or function key: an escape sequence, not part of a password.
      if (text.startsWith('\u001b')) return;
      for (const char of text) {
        if (char === '\r' || char === '\n') {
          finish();
          return;
        }
        if (char === '\u0003' || (char === '\u0004' && value === '')) {
          finish(new CliError('cancelled'));
          return;
        }
        if (char === '\u007f' || char === '\b') value = Array.from(value).slice(0, -1).join('');
        else if (char === '\u0015') value = '';
        else if (char >= ' ') value += char;
      }
    };
    terminal.setRawMode(true);
    showPrompt();
    terminal.on('data', onData);
    terminal.resume();
  });
}

/**
 * `--password` exists only to say no: a clear usage error beats commander's
 * "unknown option", and nothing is sent to the server.
 */
export function refusePasswordArgument(value: string | undefined): void {
  if (value !== undefined) {
    throw new CliError(
      'passwords are never taken from the command line (shell history, ps): use --password-stdin or the prompt',
      2,
    );
  }
}
