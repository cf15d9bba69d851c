import { randomBytes } from 'node:crypto';
import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { loadCommandConfig } from '../load-command-config.js';
import { openCommandFoundation } from '../open-command-foundation.js';
import { keyEncryptionKey, keySwitchWithinMs, rotateSigningKey } from '../../keys/index.js';
import { signingKeyRetireAfterMs } from '../../oidc/create-protocol-deps.js';
import { createEventLog } from '../../events/index.js';
import { serverSecretSetting } from '../../security/resolve-server-secret.js';
import type { SigningAlgorithm, SigningKeyRecord } from '../../model/index.js';

/**
 * `idp keys list|rotate`: the signing keys in the database. rotate replaces
 * the signing key of every algorithm that has one (RS256 and whatever
 * tokens.signing_alg and the clients use; before the first start, a key of
 * tokens.signing_alg), and every instance signs with the new keys within
 * keySwitchWithinMs; the replaced keys stay in the JWKS until the
 * tokens they signed have expired (docs/oidc.md).
 */
export async function runKeys(
  ctx: CliContext,
  action: string,
  opts: { config?: string; json?: boolean },
): Promise<number> {
  if (action !== 'list' && action !== 'rotate')
    throw new CliError(`unknown keys action "${action}" (expected list or rotate)`, 2);
  const config = await loadCommandConfig(ctx, opts.config, ['database', 'security', 'tokens']);
  const { storage, clock } = await openCommandFoundation(config, ctx.cwd);
  const { db, repositories } = storage;
  try {
    const now = clock.now();
    if (action === 'rotate') {
      // The same secret serve uses: configured, or the generated one kept in the database.
      const secret =
        config.security.secret ??
        (await repositories.settings.getOrCreate(
          db,
          serverSecretSetting,
          () => randomBytes(32).toString('base64url'),
          now,
        ));
      const retireAfterMs = signingKeyRetireAfterMs(config.tokens);
      const rotation = { db, keys: repositories.signingKeys, kek: keyEncryptionKey(secret), clock, retireAfterMs };
      const algorithms = signingAlgsOf(await repositories.signingKeys.listAll(db));
      if (algorithms.length === 0) {
        // Nothing to replace: the first key, which `idp serve` signs with from its start.
        const key = await rotateSigningKey(rotation, config.tokens.signingAlg);
        if (!key) throw new CliError('another rotation happened at the same time; run `idp keys list` to see the keys');
        ctx.output.out(
          `${ctx.output.color.green('created')}: ${key.alg} key ${key.kid}, the first signing key (there were none to replace)`,
        );
        return 0;
      }
      const switchSeconds = keySwitchWithinMs / 1000;
      for (const alg of algorithms) {
        const key = await rotateSigningKey(rotation, alg);
        if (!key) throw new CliError('another rotation happened at the same time; run `idp keys list` to see the keys');
        await createEventLog({ storage, clock }).record(db, {
          type: 'signing_key.rotated',
          actor: 'config',
          subject: key.kid,
          detail: { alg: key.alg },
        });
        ctx.output.out(
          `${ctx.output.color.green('rotated')}: ${key.alg} key ${key.kid} signs from now on (running instances switch within ${switchSeconds} s)`,
        );
      }
      ctx.output.out(
        `the replaced ${algorithms.length === 1 ? 'key stays' : 'keys stay'} published until ${new Date(now + retireAfterMs).toISOString()}`,
      );
      return 0;
    }
    const keys = await repositories.signingKeys.listAll(db);
    if (opts.json) {
      ctx.output.out(
        JSON.stringify(
          keys.map((k) => ({
            kid: k.kid,
            alg: k.alg,
            status: statusOf(k, keys, now),
            created_at: iso(k.createdAt),
            retire_at: k.retireAt === null ? null : iso(k.retireAt),
          })),
        ),
      );
      return 0;
    }
    if (keys.length === 0) ctx.output.out('no signing keys yet: `idp serve` creates the first one on start');
    for (const key of keys) {
      const retire = key.retireAt === null ? '' : `  retire at ${iso(key.retireAt)}`;
      ctx.output.out(
        `${key.kid}  ${key.alg.padEnd(5)}  ${statusOf(key, keys, now).padEnd(9)}  created ${iso(key.createdAt)}${retire}`,
      );
    }
    return 0;
  } finally {
    await storage.close();
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The key that signs for its algorithm: the newest of that algorithm without a retire time (KeyStore's rule). */
function isSigning(key: SigningKeyRecord, all: SigningKeyRecord[]): boolean {
  return key.retireAt === null && all.find((k) => k.alg === key.alg && k.retireAt === null) === key;
}

/** The algorithms that have a signing key now, newest key first. */
function signingAlgsOf(all: SigningKeyRecord[]): SigningAlgorithm[] {
  return all.filter((k) => isSigning(k, all)).map((k) => k.alg);
}

function statusOf(key: SigningKeyRecord, all: SigningKeyRecord[], now: number): 'signing' | 'published' | 'retired' {
  if (isSigning(key, all)) return 'signing';
  return key.retireAt !== null && key.retireAt <= now ? 'retired' : 'published';
}
