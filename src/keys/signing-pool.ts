import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { KeyObject } from 'node:crypto';
import type { SigningAlgorithm } from '../model/index.js';

export interface SigningPool {
  /** The base64url JWS signature (RFC 7515 §5.1; ECDSA as R || S, RFC 7518 §3.4) of the signing input. */
  sign(privateKey: KeyObject, alg: SigningAlgorithm, signingInput: string): Promise<string>;
  /** Stops the workers; signatures still pending are rejected. */
  close(): Promise<void>;
}

/** [key id, alg, signing input] */
type SignItem = [number, SigningAlgorithm, string];
interface BatchMessage {
  first: number;
  keys: [number, KeyObject][];
  items: SignItem[];
}
/** [request id, signature] or [request id, null, error message] */
type SignReply = [number, string] | [number, null, string];

/**
 * The worker's code, evaluated by `new Worker(..., { eval: true })`: a file
 * next to this one would not exist when the TypeScript sources run under the
 * test runner. It loads builtins with process.getBuiltinModule, not
 * require, because an eval'd worker is an ES module when its parent was
 * started with --input-type=module. It signs each item of a batch and
 * answers each one as soon as it is signed, so the main thread can write
 * that response while the rest of the batch is signed.
 */
const workerSource = `
const { parentPort } = process.getBuiltinModule('node:worker_threads');
const { sign } = process.getBuiltinModule('node:crypto');
const keys = new Map();
function signOne(key, alg, input) {
  const data = Buffer.from(input);
  if (alg === 'EdDSA') return sign(null, data, key);
  if (alg === 'ES256') return sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' });
  return sign('sha256', data, key);
}
parentPort.on('message', ({ first, keys: newKeys, items }) => {
  for (const [id, key] of newKeys) keys.set(id, key);
  items.forEach(([keyId, alg, input], i) => {
    try {
      parentPort.postMessage([first + i, signOne(keys.get(keyId), alg, input).toString('base64url')]);
    } catch (error) {
      parentPort.postMessage([first + i, null, String(error && error.message || error)]);
    }
  });
});
`;

interface PoolWorker {
  worker: Worker;
  /** Key ids this worker already holds. */
  keys: Set<number>;
  /** Request ids sent to this worker and not answered yet. */
  pending: Set<number>;
}

interface Waiter {
  resolve(signature: string): void;
  reject(error: Error): void;
}

/**
 * JWS signing off the main thread (docs/oidc.md, "Performance"). Signing on
 * libuv's pool (crypto.sign with a callback) wakes a pool thread per token,
 * and that wake-up cost the token endpoint's main thread ~8% under load;
 * signing inline costs it the whole signature (~25 µs ES256, ~300 µs RS256).
 * Here the requests of one event-loop turn go to a worker as one message,
 * so a busy server pays
 * one message per turn, not one wake-up per token. An ECDSA or EdDSA
 * signature (~25-40 µs) is cheap enough that one worker outpaces the main
 * thread, and a second worker only takes CPU from it (on 2 cores: ~10% less
 * throughput, 2 ms more p99); RSA (~300 µs) spreads over one worker per core
 * (at most 4).
 *
 * A worker keeps the process alive only while it owes signatures. A worker
 * that dies rejects what it owed and is replaced on the next request.
 */
export function createSigningPool(size = Math.max(1, Math.min(4, availableParallelism()))): SigningPool {
  const workers: PoolWorker[] = [];
  const waiters = new Map<number, Waiter>();
  const keyIds = new WeakMap<KeyObject, number>();
  let nextKeyId = 0;
  let nextRequestId = 0;
  let batch: { first: number; keys: Map<number, KeyObject>; items: SignItem[] } | null = null;
  let closed = false;

  function settle(id: number, outcome: { signature: string } | { error: Error }): void {
    const waiter = waiters.get(id);
    if (!waiter) return;
    waiters.delete(id);
    if ('signature' in outcome) waiter.resolve(outcome.signature);
    else waiter.reject(outcome.error);
  }

  function retire(entry: PoolWorker, reason: string): void {
    const index = workers.indexOf(entry);
    if (index >= 0) workers.splice(index, 1);
    for (const id of entry.pending) settle(id, { error: new Error(reason) });
    entry.pending.clear();
  }

  function spawn(): PoolWorker {
    const entry: PoolWorker = { worker: new Worker(workerSource, { eval: true }), keys: new Set(), pending: new Set() };
    entry.worker.unref();
    entry.worker.on('message', ([id, signature, error]: SignReply) => {
      entry.pending.delete(id);
      if (entry.pending.size === 0) entry.worker.unref();
      settle(id, signature === null ? { error: new Error(`signing failed: ${error}`) } : { signature });
    });
    entry.worker.on('error', (error) => retire(entry, `the signing worker failed: ${error.message}`));
    entry.worker.on('exit', (code) => retire(entry, `the signing worker exited with code ${code}`));
    workers.push(entry);
    return entry;
  }

  /** RSA batches spread over idle workers, starting more up to the pool's size; the others go to the first worker. */
  function pick(spread: boolean): PoolWorker {
    if (workers.length === 0) return spawn();
    if (!spread) return workers[0];
    const idle = workers.find((w) => w.pending.size === 0);
    if (idle) return idle;
    if (workers.length < size) return spawn();
    return workers.reduce((best, w) => (w.pending.size < best.pending.size ? w : best));
  }

  function flush(): void {
    const current = batch;
    batch = null;
    if (!current || closed) return;
    const entry = pick(current.items.some(([, alg]) => alg === 'RS256'));
    const message: BatchMessage = { first: current.first, keys: [], items: current.items };
    for (const [id, key] of current.keys) {
      if (entry.keys.has(id)) continue;
      entry.keys.add(id);
      message.keys.push([id, key]);
    }
    if (entry.pending.size === 0) entry.worker.ref();
    for (let i = 0; i < current.items.length; i++) entry.pending.add(current.first + i);
    entry.worker.postMessage(message);
  }

  function keyIdOf(key: KeyObject): number {
    let id = keyIds.get(key);
    if (id === undefined) keyIds.set(key, (id = nextKeyId++));
    return id;
  }

  return {
    sign(privateKey, alg, signingInput) {
      if (closed) return Promise.reject(new Error('the signing pool is closed'));
      return new Promise<string>((resolve, reject) => {
        const id = nextRequestId++;
        waiters.set(id, { resolve, reject });
        if (!batch) {
          batch = { first: id, keys: new Map(), items: [] };
          setImmediate(flush);
        }
        const keyId = keyIdOf(privateKey);
        batch.keys.set(keyId, privateKey);
        batch.items.push([keyId, alg, signingInput]);
      });
    },
    async close() {
      closed = true;
      const current = batch;
      batch = null;
      if (current)
        for (let i = 0; i < current.items.length; i++)
          settle(current.first + i, { error: new Error('the signing pool is closed') });
      await Promise.all(
        [...workers].map(async (entry) => {
          retire(entry, 'the signing pool is closed');
          await entry.worker.terminate();
        }),
      );
    },
  };
}
