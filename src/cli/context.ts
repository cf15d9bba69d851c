import type { Output } from './output.js';

/** What every command receives besides its own options: no globals. */
export interface CliContext {
  output: Output;
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin: NodeJS.ReadableStream;
  /** Ends a command that runs until stopped (`admin events list --follow`); a terminal stops it with Ctrl-C instead. */
  signal?: AbortSignal;
}

export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
