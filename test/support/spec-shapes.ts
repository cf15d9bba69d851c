/**
 * Shapes the admin API states to the letter (docs/http-api.md, "Admin API"),
 * written once for every test that asserts them: the admin error bodies and the fields of the admin
 * user and the session user.
 */
export const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Authentication is required to access this resource.' };
export const FORBIDDEN = { code: 'FORBIDDEN', message: 'You do not have permission to access this resource.' };
export const NOT_EDITABLE = { code: 'USER_NOT_EDITABLE', message: 'This user account cannot be modified.' };
export const NOT_FOUND = { code: 'USER_NOT_FOUND', message: 'User not found.' };
export const EMAIL_EXISTS = { code: 'EMAIL_ALREADY_EXISTS', message: 'The provided email is already registered.' };

/** The eleven fields of the session user, sorted. */
export const sessionUserFields = [
  'managed_by',
  'sub',
  'email',
  'role',
  'email_verified',
  'email_verification_required',
  'has_password',
  'totp_registered',
  'totp_recovery_codes_missing',
  'second_factor_required',
  'passkey_count',
].sort();

/** The admin user adds deleted_at. */
export const adminUserFields = [...sessionUserFields, 'deleted_at'].sort();
