import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createSigningPool, type SigningPool } from '../../src/keys/signing-pool.js';
import type { SigningAlgorithm } from '../../src/model/index.js';

interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed = generateKeyPairSync('ed25519');
const keyOf: Record<SigningAlgorithm, KeyPair> = { RS256: rsa, ES256: ec, EdDSA: ed };

/** The JWS verification of RFC 7518 §3.3/§3.4 and RFC 8037: ECDSA signatures are R || S, not DER. */
function verifies(alg: SigningAlgorithm, publicKey: KeyObject, input: string, signature: string): boolean {
  const data = Buffer.from(input);
  const sig = Buffer.from(signature, 'base64url');
  if (alg === 'EdDSA') return verify(null, data, publicKey, sig);
  if (alg === 'ES256') return verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, sig);
  return verify('sha256', data, publicKey, sig);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the signing pool', () => {
  const pools: SigningPool[] = [];
  const pool = (size?: number): SigningPool => {
    const created = createSigningPool(size);
    pools.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it.each(['RS256', 'ES256', 'EdDSA'] as const)(
    'produces a %s signature that verifies against the public key',
    async (alg) => {
      const input = `header.${alg}-payload`;
      const signature = await pool().sign(keyOf[alg].privateKey, alg, input);
      expect(verifies(alg, keyOf[alg].publicKey, input, signature)).toBe(true);
      // A tampered input must fail, or the check above proves nothing.
      expect(verifies(alg, keyOf[alg].publicKey, `${input}x`, signature)).toBe(false);
    },
  );

  it('returns the 64-byte R || S form for ES256, not DER', async () => {
    const signature = await pool().sign(ec.privateKey, 'ES256', 'a.b');
    expect(Buffer.from(signature, 'base64url')).toHaveLength(64);
  });

  it('matches every reply to its own request across batches and workers', async () => {
    const signing = pool(2);
    const algs: SigningAlgorithm[] = ['RS256', 'ES256', 'EdDSA'];
    const requests: { alg: SigningAlgorithm; input: string; signature: Promise<string> }[] = [];
    // Three turns, three batches: the first (RSA) is still being signed when
    // the second flushes, so the second goes to a second worker and the third
    // to whichever owes less; replies of different batches then interleave.
    for (let turn = 0; turn < 3; turn++) {
      for (let i = 0; i < 100; i++) {
        const alg = algs[(turn + i) % 3];
        const input = `h.${turn}-${i}-${alg}`;
        requests.push({ alg, input, signature: signing.sign(keyOf[alg].privateKey, alg, input) });
      }
      await nextTurn();
    }
    const signatures = await Promise.all(requests.map((r) => r.signature));
    const wrong = requests
      .filter((r, i) => !verifies(r.alg, keyOf[r.alg].publicKey, r.input, signatures[i]))
      .map((r) => r.input);
    expect(wrong).toEqual([]);
  });

  it('tells keys apart by KeyObject, even two of the same algorithm', async () => {
    const signing = pool(2);
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pairs = [ec, other];
    const requests = Array.from({ length: 40 }, (_, i) => {
      const pair = pairs[i % 2];
      const input = `h.${i}`;
      return { pair, input, signature: signing.sign(pair.privateKey, 'ES256', input) };
    });
    // A second batch, after the first has taught the worker both keys.
    await Promise.all(requests.map((r) => r.signature));
    requests.push({
      pair: other,
      input: 'h.late-other',
      signature: signing.sign(other.privateKey, 'ES256', 'h.late-other'),
    });
    requests.push({ pair: ec, input: 'h.late-ec', signature: signing.sign(ec.privateKey, 'ES256', 'h.late-ec') });
    const signatures = await Promise.all(requests.map((r) => r.signature));
    requests.forEach(({ pair, input }, i) => {
      const stranger = pair === ec ? other : ec;
      expect(verifies('ES256', pair.publicKey, input, signatures[i]), input).toBe(true);
      expect(verifies('ES256', stranger.publicKey, input, signatures[i]), input).toBe(false);
    });
  });

  it.each([
    ['a public key', ec.publicKey, 'ES256'],
    ['an Ed25519 key with RS256', ed.privateKey, 'RS256'],
  ] as const)('rejects a signature the worker cannot make (%s) and keeps serving', async (_, key, alg) => {
    const signing = pool();
    // In the same batch as the failing one: the failure must stay with its own request.
    const good = signing.sign(ed.privateKey, 'EdDSA', 'h.good');
    const bad = signing.sign(key, alg, 'h.bad');
    await expect(bad).rejects.toThrow(/^signing failed: ./);
    expect(verifies('EdDSA', ed.publicKey, 'h.good', await good)).toBe(true);
    const after = await signing.sign(rsa.privateKey, 'RS256', 'h.after');
    expect(verifies('RS256', rsa.publicKey, 'h.after', after)).toBe(true);
  });

  it('on close, rejects what is still owed and refuses new requests', async () => {
    const signing = pool(2);
    await signing.sign(rsa.privateKey, 'RS256', 'h.warm');
    const inWorker = Array.from({ length: 20 }, (_, i) => signing.sign(rsa.privateKey, 'RS256', `h.${i}`));
    // The batch has been posted, and no reply can be handled before close() runs in this same turn.
    await nextTurn();
    const unflushed = signing.sign(ec.privateKey, 'ES256', 'h.unflushed');
    const closing = signing.close();
    const outcomes = await Promise.allSettled([...inWorker, unflushed]);
    await closing;
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(Error);
      expect((outcome as PromiseRejectedResult).reason.message).toBe('the signing pool is closed');
    }
    await expect(signing.sign(ec.privateKey, 'ES256', 'h.later')).rejects.toThrow(/^the signing pool is closed$/);
  });
});
