import { existsSync } from 'node:fs';
import { execa, type ResultPromise } from 'execa';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A child process (through execa) whose stdout JSON lines (pino logs) the test reads; `time` as epoch milliseconds. */
export interface SpawnedProcess {
  child: ResultPromise;
  lines: Record<string, unknown>[];
  stderr: string[];
  waitForLine(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** SIGTERM, then wait for exit. */
  stop(): Promise<void>;
  exited: Promise<number | null>;
}

export function requireBuild(): void {
  if (!existsSync(new URL('../../dist/scheduler/index.js', import.meta.url))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test does) before the process tests');
  }
}

export function spawnProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { cwd?: string } = {},
): SpawnedProcess {
  const child = execa(command, args, {
    cwd: options.cwd ?? repoRoot,
    env,
    stdin: 'ignore',
    buffer: false,
    reject: false,
  });
  const lines: Record<string, unknown>[] = [];
  const stderr: string[] = [];
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const part of parts) {
      if (!part.trim()) continue;
      try {
        const line = JSON.parse(part) as Record<string, unknown>;
        // idp logs ISO 8601 times; the checks compare them with Date.now().
        if (typeof line.time === 'string') line.time = Date.parse(line.time);
        lines.push(line);
      } catch {
        stderr.push(`stdout: ${part}`);
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    stderr,
    exited,
    async waitForLine(match, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find(match);
        if (found) return found;
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`process exited (${child.exitCode ?? child.signalCode}): ${stderr.join('')}`);
        if (Date.now() > deadline)
          throw new Error(`no matching log line within ${timeoutMs} ms; stderr: ${stderr.join('').slice(0, 2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * SIGKILLs a scheduler process while it is in the middle of a job: one whose
 * claim it logged less than half a job's run time ago and has not finished.
 * Killing at an arbitrary moment could land between jobs, after a claim
 * whose log line was never written, or just after a job's success was
 * stored, and then no interruption is visible in the logs.
 */
export async function killDuringJob(victim: SpawnedProcess, jobMs: number, timeoutMs = 60_000): Promise<void> {
  const transitions = () => victim.lines.filter((l) => l.event === 'job.transition');
  const inTheMiddle = () => {
    const now = Date.now();
    const all = transitions();
    const fresh = all.filter((l) => l.to === 'running' && (l.time as number) > now - jobMs / 2);
    return fresh.some((claim) => !all.some((l) => l.jobId === claim.jobId && l.from === 'running'));
  };
  const deadline = Date.now() + timeoutMs;
  while (!inTheMiddle()) {
    if (Date.now() > deadline) throw new Error(`the victim was not seen in the middle of a job within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  victim.child.kill('SIGKILL');
  await victim.exited;
}
