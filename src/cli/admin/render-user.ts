import type { Output } from '../output.js';
import type { AdminUser, SessionUser } from './admin-api-types.js';

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** One user as `label  value` lines (users get/create/update/delete and me). */
export function renderUser(output: Output, user: SessionUser | AdminUser): string[] {
  const rows: [string, string][] = [
    ['sub', user.sub],
    ['email', user.email],
    ['role', user.role],
    ['managed by', user.managed_by],
    ['email verified', yesNo(user.email_verified)],
    ['email verification required', yesNo(user.email_verification_required)],
    ['has password', yesNo(user.has_password)],
    ['TOTP registered', yesNo(user.totp_registered)],
    ['TOTP recovery codes missing', yesNo(user.totp_recovery_codes_missing)],
    ['second factor required', yesNo(user.second_factor_required)],
    ['passkeys', String(user.passkey_count)],
  ];
  const deletedAt = 'deleted_at' in user ? user.deleted_at : undefined;
  if (deletedAt !== undefined)
    rows.push(['deleted', deletedAt === null ? 'no' : output.color.red(`yes, at ${deletedAt}`)]);
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${output.color.dim(label.padEnd(labelWidth))}  ${value}`);
}
