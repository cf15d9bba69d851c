/**
 * The Device Authorization Grant (RFC 8628; docs/oidc.md, "Device flow"):
 *
 *   POST /oauth2/device_authorization (./device-authorization.ts)
 *     → the device shows the user code and polls the token endpoint
 *       (the device_code grant, ../grants/device-code.ts)
 *   /device (the page: src/web) → GET /oauth2/device_verification?user_code=…
 *     (./verify-device.ts: the code within the rate limit of wrong codes,
 *      then THE sign-in steps of src/interaction on a device request, whose
 *      pages come back there) → /device/done
 */
export { handleDeviceAuthorization, type DeviceAuthorizationRequest } from './device-authorization.js';
export {
  verifyDevice,
  deviceRequestReader,
  type DeviceVerificationDeps,
  type DeviceCodeError,
} from './verify-device.js';
export { createUserCodeRateLimit } from './user-code-rate-limit.js';
export { displayUserCode, normalizeUserCode, userCodeAlphabet } from './user-code.js';
export { deviceCodeGrantType, deviceDonePath, devicePagePath } from './device-flow.js';
