import Joi from 'joi';
import type { AdminUserView, ProfileView, SessionUserView } from '../../admin/user-view-service.js';

/**
 * The wire shapes of users (docs/http-api.md, "Admin API", and the profile of
 * docs/http-api.md, "Your own account"): snake_case at the edge, camelCase inside.
 */
const sessionUserKeys = {
  managed_by: Joi.string().valid('database', 'config').required(),
  sub: Joi.string().min(1).max(255).required().description('Subject identifier'),
  email: Joi.string().required().description('E-mail address'),
  role: Joi.string().valid('user', 'admin').required(),
  email_verified: Joi.boolean().required(),
  email_verification_required: Joi.boolean().required(),
  has_password: Joi.boolean().required(),
  totp_registered: Joi.boolean().required(),
  totp_recovery_codes_missing: Joi.boolean()
    .required()
    .description('True when TOTP is registered and no unused recovery codes are left'),
  second_factor_required: Joi.boolean().required(),
  passkey_count: Joi.number().integer().min(0).required(),
};

export const sessionUserSchema = Joi.object(sessionUserKeys).label('SessionUser');

/** ISO 8601 UTC date-time ending in Z (the admin user's deleted_at). */
export const isoDateTime = Joi.string().pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);

/** The profile fields as stored: null when not given. */
export const profileKeys = {
  recovery_codes_left: Joi.number()
    .integer()
    .min(0)
    .required()
    .description('Unused recovery codes of the authenticator app (0 without one)'),
  name: Joi.string().allow(null).required().description('Full name (OIDC claim name)'),
  given_name: Joi.string().allow(null).required().description('Given name (OIDC claim given_name)'),
  family_name: Joi.string().allow(null).required().description('Family name (OIDC claim family_name)'),
  locale: Joi.string()
    .allow(null)
    .required()
    .description('Preferred language, one of i18n.locales (OIDC claim locale)'),
  created_at: isoDateTime.required().description('When the account was created (ISO 8601 UTC)'),
};

export const profileSchema = Joi.object({ ...sessionUserKeys, ...profileKeys }).label('Profile');

export const adminUserSchema = Joi.object({
  ...sessionUserKeys,
  deleted_at: isoDateTime
    .allow(null)
    .required()
    .description('ISO 8601 UTC date-time ending in Z when soft-deleted, otherwise null'),
}).label('AdminUser');

export const paginationSchema = Joi.object({
  page: Joi.number().integer().min(1).required(),
  page_size: Joi.number().integer().min(1).required(),
  total: Joi.number().integer().min(0).required(),
}).label('Pagination');

/** docs/http-api.md, "Admin API": e-mail format, no leading dot, no consecutive dots (joi's address rules reject both). */
export const emailSchema = Joi.string()
  .trim()
  .max(320)
  .email({ tlds: { allow: false } });

/** docs/http-api.md, "Admin API": sub length 1..255. */
export const subSchema = Joi.string().min(1).max(255);

export function toSessionUserBody(user: SessionUserView) {
  return {
    managed_by: user.managedBy,
    sub: user.sub,
    email: user.email,
    role: user.role,
    email_verified: user.emailVerified,
    email_verification_required: user.emailVerificationRequired,
    has_password: user.hasPassword,
    totp_registered: user.totpRegistered,
    totp_recovery_codes_missing: user.totpRecoveryCodesMissing,
    second_factor_required: user.secondFactorRequired,
    passkey_count: user.passkeyCount,
  };
}

export function toAdminUserBody(user: AdminUserView) {
  return { ...toSessionUserBody(user), deleted_at: user.deletedAt };
}

export function toProfileBody(user: ProfileView) {
  return {
    ...toSessionUserBody(user),
    recovery_codes_left: user.recoveryCodesLeft,
    name: user.name,
    given_name: user.givenName,
    family_name: user.familyName,
    locale: user.locale,
    created_at: user.createdAt,
  };
}
