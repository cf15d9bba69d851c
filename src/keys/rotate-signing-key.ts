import type { Clock } from '../clock.js';
import type { SigningKeyRepository, Tx } from '../storage/repositories.js';
import type { SigningAlgorithm, SigningKeyRecord } from '../model/index.js';
import { generateSigningKey } from './generate-signing-key.js';

export interface RotationDeps {
  db: Tx;
  keys: SigningKeyRepository;
  kek: Buffer;
  clock: Clock;
  /**
   * How long a replaced key stays published: the longest token lifetime
   * (access or ID token) plus the time other instances take to notice the
   * new key (KeyStore refresh interval), since they keep signing until then.
   */
  retireAfterMs: number;
}

/**
 * Adds a key of `alg` with the next generation and schedules the older keys
 * of that algorithm to leave the JWKS once every token they signed has
 * expired; the keys of the other algorithms go on signing. Race-safe across
 * instances: generations are unique across algorithms, so of two
 * concurrent additions one inserts and the other finds its generation taken
 * and returns null (someone else added a key: look again). `basedOn` is the
 * newest generation the caller saw (0 for none): passing it makes the
 * addition conditional on no other key having been added since, which is
 * what instances starting together need; without it the rotation follows
 * the newest key stored now.
 */
export async function rotateSigningKey(
  deps: RotationDeps,
  alg: SigningAlgorithm,
  basedOn?: number,
): Promise<SigningKeyRecord | null> {
  const now = deps.clock.now();
  const newestGeneration = basedOn ?? (await deps.keys.listAll(deps.db)).at(0)?.generation ?? 0;
  const record = generateSigningKey(alg, newestGeneration + 1, deps.kek, now);
  if (!(await deps.keys.insertIfGenerationFree(deps.db, record))) return null;
  await deps.keys.retireOlderThan(deps.db, alg, record.generation, now + deps.retireAfterMs);
  return record;
}
