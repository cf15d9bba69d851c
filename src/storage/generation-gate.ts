import { batchPerTurn } from './batch-per-turn.js';

/**
 * In-memory caches made exact by the cache generation (migrations/0017):
 * a number the database bumps in the same transaction as every change a
 * cache may hold (a grant revoked, an access token revoked, a user changed).
 *
 * `fresh()` resolves after a read of the generation that was sent after the
 * call: the calls of one event-loop turn share one read (batchPerTurn), and
 * a call made while a read is under way waits for the next. When the number
 * moved, every map is emptied first. So whatever a revocation's response
 * came before, a request that arrives afterwards, on any instance, sees the
 * new number and no entry older than it.
 *
 * An entry is stored only under the generation its lookup began with: a
 * lookup that raced a change must not refill a map just emptied for it.
 */
export interface GenerationGate {
  /** The current generation, with the maps emptied if it moved. */
  fresh(): Promise<number>;
  /**
   * A generation read by some other statement sent after the caller's
   * request arrived (the refresh claim returns it): as good as fresh().
   * Resolves to the generation the maps now hold, never an older one.
   */
  observe(generation: number): number;
  /** A bounded map that lives as long as the generation it was filled under. */
  map<K, V>(maxEntries: number): GatedMap<K, V>;
}

export interface GatedMap<K, V> {
  get(key: K): V | undefined;
  /** Keeps `value` when `generation` (what `fresh()` gave before the lookup) is still the current one. */
  set(key: K, value: V, generation: number): void;
}

export function createGenerationGate(read: () => Promise<number>): GenerationGate {
  let generation = Number.NaN;
  const maps: Map<unknown, unknown>[] = [];
  // The generation only grows: a read that was overtaken by a newer one changes nothing.
  function observe(read: number): number {
    if (Number.isNaN(generation) || read > generation) {
      for (const map of maps) map.clear();
      generation = read;
    }
    return generation;
  }
  const check = batchPerTurn<null, number>(async (calls) => {
    const current = observe(await read());
    return calls.map(() => current);
  });
  return {
    fresh: () => check(null),
    observe,
    map<K, V>(maxEntries: number): GatedMap<K, V> {
      const entries = new Map<K, V>();
      maps.push(entries);
      return {
        get: (key) => entries.get(key),
        set(key, value, seen) {
          if (seen !== generation) return;
          // Insertion order: the oldest entry makes room.
          if (entries.size >= maxEntries && !entries.has(key)) entries.delete(entries.keys().next().value as K);
          entries.set(key, value);
        },
      };
    },
  };
}
