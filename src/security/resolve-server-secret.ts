import { hkdfSync, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { SettingsRepository, Tx } from '../storage/repositories.js';

/** The settings key of the generated secret. */
export const serverSecretSetting = 'security.generated_secret';

/**
 * security.secret, or (when the config leaves it out) a random one generated
 * once and kept in the settings table so that every instance and every
 * restart shares it (docs/configuration.md, security). The generated one is a warning: whoever
 * reads the database can forge cookies, so production should set it.
 */
export async function resolveServerSecret(deps: {
  configured: string | null;
  db: Tx;
  settings: SettingsRepository;
  clock: Clock;
  logger: Logger;
}): Promise<string> {
  if (deps.configured) return deps.configured;
  const secret = await deps.settings.getOrCreate(
    deps.db,
    serverSecretSetting,
    () => randomBytes(32).toString('base64url'),
    deps.clock.now(),
  );
  deps.logger.warn(
    'security.secret is not set: using a generated secret stored in the database; set security.secret in production',
  );
  return secret;
}

/** A purpose-bound key from the server secret (RFC 5869 HKDF), hex; one per use so they never collide. */
export function deriveKey(secret: string, purpose: string): string {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `idp ${purpose}`, 32)).toString('hex');
}
