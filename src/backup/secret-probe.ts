import { timingSafeEqual } from 'node:crypto';
import { seal, sealingKey, unseal } from '../security/index.js';

const probe = Buffer.from('idp backup probe');
const purpose = 'backup probe';
const boundTo = 'idp-backup';

/**
 * A value sealed with the server secret, carried in a backup's header: a
 * restore opens it with the secret it would run with, and refuses before
 * writing anything when it does not open, since every sealed secret in the
 * file (signing keys, TOTP secrets) and every keyed hash (recovery codes)
 * would be useless under another secret.
 */
export function sealProbe(secret: string): string {
  return seal(probe, sealingKey(secret, purpose), boundTo);
}

export function opensProbe(sealed: string, secret: string): boolean {
  const opened = unseal(sealed, sealingKey(secret, purpose), boundTo);
  return opened !== null && opened.length === probe.length && timingSafeEqual(opened, probe);
}
