// @ts-check
/**
 * A server under test in its own process, so that the load generator never
 * shares its event loop: the script is forked with a free port as its last
 * argument and reports readiness by sending one IPC message (its info).
 */
import { fork } from 'node:child_process';
import net from 'node:net';

export async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (probe.address());
  await new Promise((resolve) => probe.close(() => resolve(undefined)));
  return port;
}

/**
 * @param {string} script absolute path of the server script
 * @param {string[]} args arguments before the port
 * @param {{ killAfterMs: number }} options how long SIGTERM may take before SIGKILL
 * @returns {Promise<{ info: any, request: (message: any) => Promise<any>, stop: () => Promise<void> }>}
 */
export async function startServerChild(script, args, { killAfterMs }) {
  const child = fork(script, [...args, String(await freePort())], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const info = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) =>
      reject(new Error(`${script} ${args.join(' ')} exited with ${code} before it was ready`)),
    );
  });
  child.removeAllListeners('exit');
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    info,
    /** Sends the child a message and resolves with its next one: one request at a time, for scripts that answer any. */
    request: (message) =>
      new Promise((resolve, reject) => {
        if (exited()) return reject(new Error(`${script} ${args.join(' ')} has exited`));
        const onExit = (/** @type {number | null} */ code) =>
          reject(new Error(`${script} ${args.join(' ')} exited with ${code} before it answered`));
        child.once('exit', onExit);
        child.once('message', (answer) => {
          child.off('exit', onExit);
          resolve(answer);
        });
        child.send(message);
      }),
    stop: () =>
      new Promise((resolve) => {
        // A child that died on its own has nothing left to stop.
        if (exited()) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), killAfterMs).unref();
      }),
  };
}
