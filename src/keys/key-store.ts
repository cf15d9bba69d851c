import { createPublicKey } from 'node:crypto';
import { createLocalJWKSet, errors, type JWTVerifyGetKey } from 'jose';
import type { SigningAlgorithm, SigningKeyRecord } from '../model/index.js';
import { openPrivateKey } from './seal-private-key.js';
import { rotateSigningKey, type RotationDeps } from './rotate-signing-key.js';
import { signingAlgorithms } from './signing-algorithms.js';
import type { SigningKey } from './signing-key.js';

export interface KeyStoreDeps extends RotationDeps {
  /** tokens.signing_alg: signs access tokens; what current() returns without an argument. */
  alg: SigningAlgorithm;
  /** Further algorithms to hold a key for from the start: the configured clients' id_token_signed_response_alg. */
  algorithms?: readonly SigningAlgorithm[];
  /** How often the in-memory key set is reloaded from the database. */
  refreshIntervalMs: number;
}

export interface KeyStore {
  /** Loads the keys and creates one for each needed algorithm (RS256, `alg`, `algorithms`) that has none. Call once at start. */
  init(): Promise<void>;
  /** The key that signs with `alg` now (default: `alg` of the deps); throws when the store holds none of that algorithm. */
  current(alg?: SigningAlgorithm): SigningKey;
  /**
   * current(alg), creating the algorithm's first key when no instance has
   * made one: a client applied while this instance runs may name an
   * algorithm it did not start with.
   */
  signingKey(alg: SigningAlgorithm): Promise<SigningKey>;
  /** The algorithms that have a signing key, RS256 first; the same array until that set changes. */
  algorithms(): readonly SigningAlgorithm[];
  /**
   * jose's key resolver for jwtVerify: the published key of the token's
   * `kid` whose algorithm is the token's `alg` (jose's local JWK Set
   * matches kty, crv, alg and use). An unknown kid triggers one reload (at
   * most once a second); a key past its retire time is unknown at once.
   */
  verificationKey: JWTVerifyGetKey;
  /** The JWK Set document (RFC 7517 §5). */
  jwks(): { keys: Record<string, unknown>[] };
  /** Reloads the key set from the database. */
  reload(): Promise<void>;
  /**
   * Reloads every refreshIntervalMs from now on, whether or not requests
   * come, so that a rotation reaches this instance within keySwitchWithinMs;
   * returns the stop. The timer never keeps the process alive.
   */
  refreshPeriodically(): () => void;
}

/** Minimum time between reloads caused by unknown kids: a flood of forged kids cannot hammer the database. */
const unknownKidReloadMs = 1000;

export const keyRefreshIntervalMs = 10_000;

/**
 * What `idp keys rotate` promises: every running instance signs with the
 * new keys within this long. One refresh interval, plus a margin for the
 * reload itself (a query and a key decryption) on a busy machine.
 */
export const keySwitchWithinMs = keyRefreshIntervalMs + 5_000;

/**
 * The signing keys every instance shares (docs/architecture.md, "Several instances": nothing shared lives
 * only in one process). Keys live in the signing_keys table, one signing
 * key per algorithm (the newest generation of that algorithm without a
 * retire time) plus the replaced ones still published; each instance holds
 * them decrypted in memory and reloads them periodically, so that a
 * rotation by `idp keys rotate` or another instance is picked up.
 */
export function createKeyStore(deps: KeyStoreDeps): KeyStore {
  let keys: SigningKey[] = [];
  let byKid = new Map<string, SigningKey>();
  let signing = new Map<SigningAlgorithm, SigningKey>();
  let algorithmList: readonly SigningAlgorithm[] = [];
  let loadedAt = 0;
  let reloading: Promise<void> | null = null;
  let adding: Promise<void> = Promise.resolve();
  let jwksDocument: { keys: Record<string, unknown>[] } = { keys: [] };
  let keySet: JWTVerifyGetKey = createLocalJWKSet(jwksDocument);

  const toKey = (record: SigningKeyRecord): SigningKey => {
    const privateKey = openPrivateKey(record.privateKey, deps.kek, record.kid);
    return { ...record, privateKey, publicKey: createPublicKey(privateKey), publicJwk: record.publicJwk };
  };

  async function load(): Promise<void> {
    const records = await deps.keys.listLive(deps.db, deps.clock.now());
    const kidsBefore = keys.map((k) => k.kid).join();
    // Keys already decrypted are kept as they are: decrypting is not free.
    keys = records.map((r) => {
      const known = byKid.get(r.kid);
      return known ? { ...known, retireAt: r.retireAt } : toKey(r);
    });
    byKid = new Map(keys.map((k) => [k.kid, k]));
    signing = new Map();
    for (const key of keys) if (key.retireAt === null && !signing.has(key.alg)) signing.set(key.alg, key);
    const algorithms = signingAlgorithms.filter((alg) => signing.has(alg));
    if (algorithms.join() !== algorithmList.join()) algorithmList = algorithms;
    jwksDocument = { keys: keys.map((k) => k.publicJwk) };
    // jose caches the keys it imports per set: a new set only when the keys changed.
    if (keys.map((k) => k.kid).join() !== kidsBefore) keySet = createLocalJWKSet(jwksDocument);
    loadedAt = deps.clock.now();
  }

  const reload = () => (reloading ??= load().finally(() => (reloading = null)));

  const refreshIfStale = () => {
    if (deps.clock.now() - loadedAt > deps.refreshIntervalMs) void reload().catch(() => undefined);
  };

  /**
   * Adds a key for each wanted algorithm that has none. Each attempt is
   * conditional on the newest generation this instance saw: when it loses,
   * another instance added a key meanwhile, so look again. One at a time
   * in this process.
   */
  function addMissing(wanted: readonly SigningAlgorithm[]): Promise<void> {
    adding = adding
      .catch(() => undefined)
      .then(async () => {
        let missing: SigningAlgorithm | undefined;
        while ((missing = wanted.find((alg) => !signing.has(alg)))) {
          await rotateSigningKey(deps, missing, keys[0]?.generation ?? 0);
          await load();
        }
      });
    return adding;
  }

  function current(alg: SigningAlgorithm = deps.alg): SigningKey {
    refreshIfStale();
    const key = signing.get(alg);
    if (!key) throw new Error(`no ${alg} signing key is loaded`);
    return key;
  }

  return {
    async init() {
      await load();
      await addMissing([...new Set<SigningAlgorithm>(['RS256', deps.alg, ...(deps.algorithms ?? [])])]);
    },
    current,
    async signingKey(alg) {
      if (!signing.has(alg)) await addMissing([alg]);
      return current(alg);
    },
    algorithms() {
      refreshIfStale();
      return algorithmList;
    },
    async verificationKey(header, token) {
      const kid = header.kid;
      if (typeof kid !== 'string') throw new errors.JWKSNoMatchingKey('the token names no key (kid)');
      if (!byKid.has(kid) && deps.clock.now() - loadedAt >= unknownKidReloadMs) await reload();
      const known = byKid.get(kid);
      // A key past its retire time is gone at once, not at the next reload.
      if (!known || (known.retireAt !== null && known.retireAt <= deps.clock.now()))
        throw new errors.JWKSNoMatchingKey('the token was signed by an unknown key');
      return keySet(header, token);
    },
    jwks() {
      refreshIfStale();
      return jwksDocument;
    },
    reload,
    refreshPeriodically() {
      // A failed reload (the database away for a moment) keeps the keys it has; the next tick tries again.
      const timer = setInterval(() => void reload().catch(() => undefined), deps.refreshIntervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
