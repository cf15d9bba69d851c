import { describe, expect, it } from 'vitest';
import { batchPerTurn } from '../../src/storage/batch-per-turn.js';
import { createGenerationGate } from '../../src/storage/generation-gate.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchPerTurn', () => {
  it('runs the calls of one turn as one batch, each call getting its own answer', async () => {
    const batches: number[][] = [];
    const double = batchPerTurn(async (inputs: number[]) => {
      batches.push(inputs);
      return inputs.map((n) => n * 2);
    });
    expect(await Promise.all([double(1), double(2), double(3)])).toEqual([2, 4, 6]);
    expect(await double(4)).toBe(8);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('holds the calls made while a batch runs for the next one, never more batches at once than allowed', async () => {
    const batches: number[][] = [];
    let running = 0;
    let most = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const run = batchPerTurn(async (inputs: number[]) => {
      running++;
      most = Math.max(most, running);
      batches.push(inputs);
      if (batches.length === 1) await gate;
      running--;
      return inputs;
    });
    const first = run(1);
    await nextTurn();
    const later = [run(2), run(3)];
    await nextTurn();
    expect(batches).toEqual([[1]]);
    release();
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3]);
    expect(batches).toEqual([[1], [2, 3]]);
    expect(most).toBe(1);
  });

  it('splits at maxBatch and runs up to `concurrency` batches at once', async () => {
    const batches: number[][] = [];
    const run = batchPerTurn(
      async (inputs: number[]) => {
        batches.push(inputs);
        await nextTurn();
        return inputs;
      },
      { concurrency: 2, maxBatch: 2 },
    );
    expect(await Promise.all([1, 2, 3, 4, 5].map(run))).toEqual([1, 2, 3, 4, 5]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('rejects every call of a batch that throws, and goes on with the next', async () => {
    let fail = true;
    const run = batchPerTurn(async (inputs: number[]) => {
      if (fail) throw new Error('down');
      return inputs;
    });
    const results = await Promise.allSettled([run(1), run(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await run(3)).toBe(3);
  });
});

describe('createGenerationGate', () => {
  it('shares one read among the calls of a turn, and reads again for a call made during a read', async () => {
    let generation = 1;
    let reads = 0;
    let release: () => void = () => {};
    let hold: Promise<void> | null = null;
    const gate = createGenerationGate(async () => {
      reads++;
      const seen = generation;
      if (hold) await hold;
      return seen;
    });
    expect(await Promise.all([gate.fresh(), gate.fresh()])).toEqual([1, 1]);
    expect(reads).toBe(1);
    hold = new Promise<void>((resolve) => (release = resolve));
    const during = gate.fresh();
    await nextTurn();
    generation = 2;
    const after = gate.fresh();
    hold = null;
    release();
    expect([await during, await after]).toEqual([1, 2]);
    expect(reads).toBe(3);
  });

  it('empties its maps when the generation moves, and refuses an entry looked up under an older one', async () => {
    let generation = 1;
    const gate = createGenerationGate(async () => generation);
    const map = gate.map<string, number>(2);
    const seen = await gate.fresh();
    map.set('a', 1, seen);
    expect(map.get('a')).toBe(1);
    generation = 2;
    expect(await gate.fresh()).toBe(2);
    expect(map.get('a')).toBeUndefined();
    map.set('stale', 1, seen);
    expect(map.get('stale')).toBeUndefined();
    map.set('b', 2, 2);
    map.set('c', 3, 2);
    map.set('d', 4, 2);
    expect([map.get('b'), map.get('c'), map.get('d')]).toEqual([undefined, 3, 4]);
  });

  it('takes a generation read by another statement as fresh, and never goes back to an older one', async () => {
    let generation = 3;
    const gate = createGenerationGate(async () => generation);
    const map = gate.map<string, number>(10);
    expect(await gate.fresh()).toBe(3);
    map.set('a', 1, 3);
    expect(gate.observe(3)).toBe(3);
    expect(map.get('a')).toBe(1);
    expect(gate.observe(5)).toBe(5);
    expect(map.get('a')).toBeUndefined();
    map.set('b', 2, 5);
    // An older read (sent before the newer one answered) changes nothing.
    expect(gate.observe(4)).toBe(5);
    generation = 4;
    expect(await gate.fresh()).toBe(5);
    expect(map.get('b')).toBe(2);
  });
});
