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
export const emailAlreadyExists = () =>
  new ApiError(409, 'EMAIL_ALREADY_EXISTS', 'The provided email is already registered.');
