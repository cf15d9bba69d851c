import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runServe, type ServeSignals } from '../../src/cli/commands/serve.js';
import { createCapturedOutput } from '../../src/cli/output.js';
import type { CliContext } from '../../src/cli/context.js';
import { repoRoot, waitUntil } from '../support/spawned-process.js';
import { freePort } from '../e2e/support/start-idp.js';

/**
 * runServe in process with signals the test sends (test/cli/serve.process.test.ts
 * sends real ones to bin/idp): a reload request during start-up, SIGHUP
 * reloads, --watch, and a SIGHUP during shutdown. The server's JSON log
 * lines are read from process.stdout.
 */
function testSignals() {
  let listener: (() => void) | null = null;
  let stop: (signal: string) => void = () => {};
  const signals: ServeSignals = {
    shutdown: () => new Promise((resolve) => (stop = resolve)),
    onReload(l) {
      listener = l;
      // A SIGHUP at once, while the server is still starting.
      l();
      return () => (listener = null);
    },
  };
  return {
    signals,
    hangup: () => listener?.(),
    stop: (signal = 'SIGTERM') => stop(signal),
    subscribed: () => listener !== null,
  };
}

describe('runServe', () => {
  let dir: string;
  let logs: Record<string, any>[];
  let onLog: (line: Record<string, any>) => void;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'idp-serve-'));
    logs = [];
    onLog = () => {};
    const write = process.stdout.write.bind(process.stdout);
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      for (const text of String(chunk).split('\n')) {
        if (!text.startsWith('{')) continue;
        logs.push(JSON.parse(text));
        onLog(logs.at(-1)!);
      }
      return isLogLine(chunk) ? true : (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  /** JSON log lines are swallowed; anything else goes on to the terminal. */
  const isLogLine = (chunk: string | Uint8Array) => String(chunk).startsWith('{');

  const context = (): CliContext & { output: ReturnType<typeof createCapturedOutput> } => ({
    output: createCapturedOutput(),
    env: {},
    cwd: dir,
    stdin: process.stdin,
  });
  const logged = (text: string) =>
    waitUntil(async () => logs.some((l) => typeof l.msg === 'string' && l.msg.startsWith(text)), 20_000, text);

  it('reloads after start-up for a SIGHUP that came during it, then on each SIGHUP and file change, and ignores one during shutdown', async () => {
    const file = path.join(dir, 'idp.yaml');
    const yaml = (name: string) =>
      `database:\n  client: sqlite\n  filename: ./idp.sqlite\nsecurity:\n  secret: in-process-serve-secret-0123456789\nlogging:\n  format: json\nbranding:\n  name: ${name}\n`;
    await writeFile(file, yaml('One'));
    const { signals, hangup, stop } = testSignals();
    const done = runServe(context(), { config: file, host: '127.0.0.1', port: '0', watch: true }, signals);

    await logged('config reloaded (SIGHUP during start-up): no changes');
    expect(logs.some((l) => l.msg === 'SIGHUP arrived while the server was starting: reloading the config now')).toBe(
      true,
    );
    await writeFile(file, yaml('Two'));
    hangup();
    await logged('config reloaded (');
    await waitUntil(
      async () =>
        logs.filter((l) => /^config reloaded \((SIGHUP|file changed)\): now in effect: branding\.name$/.test(l.msg))
          .length >= 1,
      20_000,
      'branding reload',
    );

    // A SIGHUP the moment shutdown begins (while in-flight requests drain).
    onLog = (l) => {
      if (l.msg.startsWith('shutting down')) hangup();
    };
    stop();
    expect(await done).toBe(0);
    expect(logs.some((l) => l.msg === 'SIGHUP ignored: the server is shutting down')).toBe(true);
    expect(logs.at(-1)?.msg).toBe('stopped');
  });

  it('serves the quickstart on --port: the issuer and the sign-in follow the port', async () => {
    const file = path.join(dir, 'quickstart.yaml');
    await copyFile(path.join(repoRoot, 'examples', 'quickstart.yaml'), file);
    const port = await freePort();
    const { signals, stop } = testSignals();
    const done = runServe(context(), { config: file, host: '127.0.0.1', port: String(port) }, signals);
    await logged('idp listening');
    const base = `http://localhost:${String(port)}`;
    const served = `http://127.0.0.1:${String(port)}`;
    const discovery = (await (await fetch(`${served}/.well-known/openid-configuration`)).json()) as { issuer: string };
    expect(discovery.issuer).toBe(base);
    const login = await fetch(`${served}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: 'admin@example.com', password: 'demo-admin-password' }),
    });
    expect(login.status).toBe(200);
    expect(logs.filter((l) => l.level === 40)).toEqual([]);
    stop();
    expect(await done).toBe(0);
  });

  it('prints a one-time setup link while no admin exists, and none once the link made one', async () => {
    const file = path.join(dir, 'idp.yaml');
    await writeFile(
      file,
      'database:\n  client: sqlite\n  filename: ./idp.sqlite\nsecurity:\n  secret: in-process-serve-secret-0123456789\nlogging:\n  format: json\n',
    );
    const port = await freePort();
    const first = testSignals();
    const done = runServe(context(), { config: file, host: '127.0.0.1', port: String(port) }, first.signals);
    await logged('no admin exists yet');
    const line = logs.find((l) => typeof l.msg === 'string' && l.msg.startsWith('no admin exists yet'));
    const link = new URL(line?.setup_url as string);
    expect(line?.level).toBe(40);
    expect(link.pathname).toBe('/setup');
    // 32 random bytes, base64url.
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const base = `http://127.0.0.1:${String(port)}`;
    expect((await fetch(`${base}/setup?token=${link.searchParams.get('token')}`)).status).toBe(200);
    const created = await fetch(`${base}/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: link.origin },
      body: new URLSearchParams({
        token: link.searchParams.get('token') ?? '',
        email: 'first@example.com',
        password: 'a long enough password',
      }).toString(),
      redirect: 'manual',
    });
    expect(created.status).toBe(303);
    expect(created.headers.get('location')).toBe('/admin');
    first.stop();
    expect(await done).toBe(0);

    logs.length = 0;
    const second = testSignals();
    const again = runServe(context(), { config: file, host: '127.0.0.1', port: String(port) }, second.signals);
    // The last line before runServe waits for the shutdown signal.
    await logged('SIGHUP arrived while the server was starting');
    expect(logs.some((l) => typeof l.msg === 'string' && l.msg.startsWith('no admin exists yet'))).toBe(false);
    expect((await fetch(`${base}/setup?token=${link.searchParams.get('token')}`)).status).toBe(404);
    second.stop();
    expect(await again).toBe(0);
  });

  it('warns at start when server.base_url names another port than the one it listens on, naming both', async () => {
    const file = path.join(dir, 'idp.yaml');
    const yaml = (baseUrl: string) =>
      `server:\n  base_url: ${baseUrl}\ndatabase:\n  client: sqlite\n  filename: ./idp.sqlite\nsecurity:\n  secret: in-process-serve-secret-0123456789\nlogging:\n  format: json\n`;
    const port = await freePort();
    // The file declares no admin: the first-admin link is the other warning, tested above.
    const warnings = () => logs.filter((l) => l.level === 40 && !String(l.msg).startsWith('no admin exists yet'));
    await writeFile(file, yaml('http://localhost:8080'));
    const first = testSignals();
    const done = runServe(context(), { config: file, host: '127.0.0.1', port: String(port) }, first.signals);
    await logged('SIGHUP arrived while the server was starting');
    expect(warnings().map((l) => l.msg)).toEqual([
      `server.base_url http://localhost:8080 names port 8080, but idp listens on port ${String(port)}: browsers at http://localhost:8080 reach no server unless a proxy forwards that port here, and sign-ins from http://localhost:${String(port)} are refused as cross-site; set server.base_url to the address people open, or leave it out to follow the port`,
    ]);
    first.stop();
    expect(await done).toBe(0);

    // Behind a reverse proxy the public URL names no port of its own: nothing to warn about.
    logs.length = 0;
    await writeFile(file, yaml('https://id.example.com'));
    const second = testSignals();
    const again = runServe(context(), { config: file, host: '127.0.0.1', port: String(port) }, second.signals);
    await logged('SIGHUP arrived while the server was starting');
    expect(warnings()).toEqual([]);
    second.stop();
    expect(await again).toBe(0);
  });

  it('refuses --watch without a config file, and a port that is no port, as usage errors', async () => {
    await expect(runServe(context(), { watch: true }, testSignals().signals)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('--watch needs a config file'),
    });
    await expect(runServe(context(), { port: '70000' }, testSignals().signals)).rejects.toMatchObject({ exitCode: 2 });
  });
});
