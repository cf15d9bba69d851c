import { ApiError } from '../api-error.js';

/** The errors of the self-service account routes (docs/http-api.md, "Self-service accounts"), with the messages people read. */
export const registrationDisabled = () =>
  new ApiError(403, 'REGISTRATION_DISABLED', 'Self-registration is not enabled on this server.');
export const emailNotAllowed = () =>
  new ApiError(403, 'EMAIL_NOT_ALLOWED', 'This e-mail address may not be used to register here.');
export const termsNotAccepted = (missing: string[]) =>
  new ApiError(400, 'TERMS_NOT_ACCEPTED', `The required terms must be accepted: ${missing.join(', ')}.`);
export const invalidToken = () =>
  new ApiError(400, 'INVALID_TOKEN', 'The link is invalid, has expired or has already been used.');
export const emailDisabled = () =>
  new ApiError(
    503,
    'EMAIL_DISABLED',
    'This server does not send e-mail (email.enabled is false), so this action is not available.',
  );
export const emailNotVerified = () =>
  new ApiError(
    403,
    'EMAIL_NOT_VERIFIED',
    'The e-mail address has not been verified yet. Open the link in the verification e-mail, or ask for a new one.',
  );
export const upstreamEmailNotVerified = () =>
  new ApiError(
    403,
    'EMAIL_NOT_VERIFIED',
    'The provider does not assert this e-mail address verified, so no account is created from it.',
  );
export const termsNotFound = (id: string) =>
  new ApiError(404, 'TERMS_NOT_FOUND', `There are no terms with the id "${id}".`);
export const termsVersionMismatch = (id: string, current: string) =>
  new ApiError(
    409,
    'TERMS_VERSION_MISMATCH',
    `Version "${current}" is the current version of the terms "${id}": reload them and accept that one.`,
  );
