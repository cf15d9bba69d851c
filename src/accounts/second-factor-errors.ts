import { ApiError } from '../api-error.js';

/** The errors of the second-factor routes (docs/http-api.md lists them). */
export const invalidCode = () => new ApiError(401, 'INVALID_CODE', 'The code is incorrect, expired or already used.');
export const totpAlreadyRegistered = () =>
  new ApiError(
    409,
    'TOTP_ALREADY_REGISTERED',
    'An authenticator app is already registered: remove it before registering another.',
  );
export const totpNotPending = () =>
  new ApiError(
    409,
    'TOTP_NOT_PENDING',
    'No authenticator app is waiting for confirmation: start with POST /api/user/totp.',
  );
export const totpNotRegistered = () => new ApiError(404, 'TOTP_NOT_REGISTERED', 'No authenticator app is registered.');
export const secondFactorRequired = () =>
  new ApiError(
    409,
    'SECOND_FACTOR_REQUIRED',
    'This account must keep a second factor: register another one before removing the last.',
  );
export const stepUpNotNeeded = () =>
  new ApiError(409, 'STEP_UP_NOT_NEEDED', 'This session was signed in with a second factor already.');
export const passkeyNotFound = () => new ApiError(404, 'PASSKEY_NOT_FOUND', 'Passkey not found.');
export const passkeyAlreadyRegistered = () =>
  new ApiError(409, 'PASSKEY_ALREADY_REGISTERED', 'This passkey is already registered.');
export const passkeysDisabled = () => new ApiError(403, 'PASSKEYS_DISABLED', 'Passkeys are turned off on this server.');

/** A WebAuthn response that does not verify: 401 when signing in, 400 when registering (the caller is signed in). */
export const invalidPasskey = (status: 400 | 401, reason: string) =>
  new ApiError(status, 'INVALID_PASSKEY', `The passkey could not be verified: ${reason}.`);
