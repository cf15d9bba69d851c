import type { SigningAlgorithm, SigningKeyRecord } from '../model/index.js';
import { openPrivateKey } from './seal-private-key.js';
import { rotateSigningKey, type RotationDeps } from './rotate-signing-key.js';
import { createPublicKey } from 'node:crypto';
import type { SigningKey } from './signing-key.js';

export interface KeyStoreDeps extends RotationDeps {
  alg: SigningAlgorithm;
  /** How often the in-memory key set is reloaded from the database. */
  refreshIntervalMs: number;
}

export interface KeyStore {
  /** Loads the keys, creating the first one (or one of a newly configured alg) if needed. Call once at start. */
  init(): Promise<void>;
  /** The key that signs now: the newest generation. */
  current(): SigningKey;
  /** A published key by kid; an unknown kid triggers one reload (at most once a second). */
  findKey(kid: string): Promise<SigningKey | null>;
  /** The JWK Set document (RFC 7517 §5). */
  jwks(): { keys: Record<string, unknown>[] };
  /** Reloads the key set from the database. */
  reload(): Promise<void>;
}

/** Minimum time between reloads caused by unknown kids: a flood of forged kids cannot hammer the database. */
const unknownKidReloadMs = 1000;

export const keyRefreshIntervalMs = 30_000;

/**
 * The signing keys every instance shares (DESIGN.md 9: nothing shared lives
 * only in one process). Keys live in the signing_keys table; each instance
 * holds them decrypted in memory and reloads them periodically, so that a
 * rotation by `idp keys rotate` or another instance is picked up.
 */
export function createKeyStore(deps: KeyStoreDeps): KeyStore {
  let keys: SigningKey[] = [];
  let byKid = new Map<string, SigningKey>();
  let loadedAt = 0;
  let reloading: Promise<void> | null = null;
  let jwksDocument: { keys: Record<string, unknown>[] } = { keys: [] };

  const toKey = (record: SigningKeyRecord): SigningKey => {
    const privateKey = openPrivateKey(record.privateKey, deps.kek, record.kid);
    return { ...record, privateKey, publicKey: createPublicKey(privateKey), publicJwk: record.publicJwk };
  };

  async function load(): Promise<void> {
    const records = await deps.keys.listLive(deps.db, deps.clock.now());
    // Keys already decrypted are kept as they are: decrypting is not free.
    keys = records.map((r) => {
      const known = byKid.get(r.kid);
      return known ? { ...known, retireAt: r.retireAt } : toKey(r);
    });
    byKid = new Map(keys.map((k) => [k.kid, k]));
    jwksDocument = { keys: keys.map((k) => k.publicJwk) };
    loadedAt = deps.clock.now();
  }

  const reload = () => (reloading ??= load().finally(() => (reloading = null)));

  const live = (key: SigningKey) => key.retireAt === null || key.retireAt > deps.clock.now();

  return {
    async init() {
      await load();
      if (keys[0]?.alg !== deps.alg) {
        // Conditional on the key set just loaded: of instances starting together, one adds the key.
        await rotateSigningKey(deps, deps.alg, keys[0]?.generation ?? 0);
        await load();
      }
      if (keys.length === 0) throw new Error('no signing key could be loaded');
    },
    current() {
      if (deps.clock.now() - loadedAt > deps.refreshIntervalMs) void reload().catch(() => undefined);
      return keys[0];
    },
    async findKey(kid) {
      const known = byKid.get(kid);
      if (known) return live(known) ? known : null;
      if (deps.clock.now() - loadedAt < unknownKidReloadMs) return null;
      await reload();
      const found = byKid.get(kid);
      return found && live(found) ? found : null;
    },
    jwks() {
      if (deps.clock.now() - loadedAt > deps.refreshIntervalMs) void reload().catch(() => undefined);
      return jwksDocument;
    },
    reload,
  };
}
