import { ApiError } from '../api-error.js';
import type { AuthConfig } from '../config/types.js';

/**
 * A password a user is about to set is at least auth.password_min_length
 * characters long (Unicode code points, so an emoji counts once), else 400
 * PASSWORD_TOO_SHORT (docs/http-api.md, "Self-service accounts"). The upper bound (256, as in docs/http-api.md, "Admin API") is the
 * route's joi schema.
 */
export function checkNewPassword(password: string, auth: Pick<AuthConfig, 'passwordMinLength'>): void {
  if (Array.from(password).length >= auth.passwordMinLength) return;
  throw new ApiError(
    400,
    'PASSWORD_TOO_SHORT',
    `The password must be at least ${auth.passwordMinLength} characters long.`,
  );
}
