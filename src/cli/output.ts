import { Chalk, type ChalkInstance } from 'chalk';

/**
 * Where commands write. The only module that knows about chalk and TTYs:
 * commands receive an Output and stay testable with a captured one.
 */
export interface Output {
  out(line: string): void;
  err(line: string): void;
  /** Colours are on only for a TTY without NO_COLOR. */
  color: ChalkInstance;
  isTTY: boolean;
  columns: number;
}

export function createProcessOutput(env: NodeJS.ProcessEnv = process.env): Output {
  // `idp openapi | head`: a reader that has gone away is not our failure. Exit quietly, as Unix tools do.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(0);
    });
  }
  // Undefined, not false, when stdout is a pipe or a file.
  const isTTY = Boolean(process.stdout.isTTY as boolean | undefined);
  const colorful = isTTY && env.NO_COLOR === undefined;
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    color: new Chalk({ level: colorful ? 1 : 0 }),
    isTTY,
    // A pseudo-terminal without a size reports 0 columns.
    columns: process.stdout.columns || 100,
  };
}

/** An Output that records lines, for tests. */
export function createCapturedOutput(): Output & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (line) => stdout.push(line),
    err: (line) => stderr.push(line),
    color: new Chalk({ level: 0 }),
    isTTY: false,
    columns: 100,
  };
}

/**
 * A failure the user should read as one line. Commands throw it; main()
 * prints the message and exits with the code (1 failure, 2 usage).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
