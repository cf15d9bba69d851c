import { randomUUID } from 'node:crypto';
import type { PresentedCredentials } from '../../clients/index.js';
import { authenticateClient } from '../authenticate-client.js';
import { requestedScopes } from '../authorize/check-scope.js';
import { OAuthError } from '../errors.js';
import type { ProtocolDeps } from '../protocol-deps.js';
import { hashOpaqueToken, newOpaqueToken } from '../tokens/index.js';
import { deviceCodeGrantType, deviceCodeTtlSeconds, devicePagePath, pollIntervalSeconds } from './device-flow.js';
import { displayUserCode, newUserCode } from './user-code.js';

export interface DeviceAuthorizationRequest {
  /** The client's credentials as at the token endpoint (a public client sends its client_id alone). */
  credentials: PresentedCredentials;
  scope: string | undefined;
}

/** RFC 8628 §3.2. */
export interface DeviceAuthorizationResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/**
 * The device authorization endpoint (RFC 8628 §3.1–3.2): the client
 * authenticates as at the token endpoint (public clients with their
 * client_id), must be allowed the device_code grant, and its `scope` is
 * narrowed as at the authorization endpoint. The device code is a bearer
 * secret of 256 bits, stored as its digest only; the user code is short
 * and typed by a person, so /device limits wrong guesses.
 */
export async function handleDeviceAuthorization(
  request: DeviceAuthorizationRequest,
  deps: ProtocolDeps,
): Promise<DeviceAuthorizationResponse> {
  const client = await authenticateClient(request.credentials, deps);
  if (!client.grantTypes.includes(deviceCodeGrantType))
    throw new OAuthError('unauthorized_client', `The client is not allowed to use the ${deviceCodeGrantType} grant.`);
  const scopes = requestedScopes(request.scope, client);
  const deviceCode = newOpaqueToken();
  const now = deps.clock.now();
  let userCode: string;
  // A user code taken by a stored request (1 in 2^34 per request held) is drawn again.
  do userCode = newUserCode();
  while (
    !(await deps.deviceCodes.insert(deps.db, {
      deviceCodeHash: hashOpaqueToken(deviceCode),
      userCode,
      clientId: client.clientId,
      scopes,
      status: 'pending',
      confirmedBy: null,
      approval: null,
      grantId: randomUUID(),
      intervalSeconds: pollIntervalSeconds,
      lastPolledAt: null,
      expiresAt: now + deviceCodeTtlSeconds * 1000,
      spentAt: null,
      createdAt: now,
    }))
  );
  const verificationUri = `${deps.issuer}${devicePagePath}`;
  const shown = displayUserCode(userCode);
  return {
    device_code: deviceCode,
    user_code: shown,
    verification_uri: verificationUri,
    verification_uri_complete: `${verificationUri}?${new URLSearchParams({ user_code: shown }).toString()}`,
    expires_in: deviceCodeTtlSeconds,
    interval: pollIntervalSeconds,
  };
}
