/**
 * The JSON API's one error type (docs/http-api.md, "Conventions", "Admin API"). Services
 * throw it with the status, the machine-readable code and the exact
 * human-readable message; src/http renders it as `{ code, message }` (plus
 * `details` for validation errors). Protocol endpoints use OAuthError instead.
 */
export interface ApiErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { details?: ApiErrorDetail[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

// The exact messages of the admin operations (docs/http-api.md, "Admin API").
export const unauthorized = () =>
  new ApiError(401, 'UNAUTHORIZED', 'Authentication is required to access this resource.');
export const forbidden = () => new ApiError(403, 'FORBIDDEN', 'You do not have permission to access this resource.');
export const userNotEditable = () => new ApiError(403, 'USER_NOT_EDITABLE', 'This user account cannot be modified.');
export const userNotFound = () => new ApiError(404, 'USER_NOT_FOUND', 'User not found.');
export const userNotDeleted = () => new ApiError(409, 'USER_NOT_DELETED', 'This user account is not deleted.');
export const restorePeriodEnded = () =>
  new ApiError(409, 'RESTORE_PERIOD_ENDED', 'The grace period of this deleted user account has ended.');
export const emailAlreadyExists = () =>
  new ApiError(409, 'EMAIL_ALREADY_EXISTS', 'The provided email is already registered.');

// The groups and access operations (docs/http-api.md, "Groups and access").
export const groupNotFound = () => new ApiError(404, 'GROUP_NOT_FOUND', 'Group not found.');
export const clientNotFound = () => new ApiError(404, 'CLIENT_NOT_FOUND', 'Client not found.');
export const memberNotFound = () => new ApiError(404, 'MEMBER_NOT_FOUND', 'The user is not a member of this group.');
/** The same code when the user is in the group only through the file or an upstream provider, which own that membership. */
export const memberNotRemovable = () =>
  new ApiError(
    404,
    'MEMBER_NOT_FOUND',
    'The user is a member of this group only through the config file or an upstream provider, which the admin API cannot change.',
  );
