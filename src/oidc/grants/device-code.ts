import type { DeviceApproval, DeviceCodeRecord, GrantRecord } from '../../model/index.js';
import { deviceCodeGrantType, slowDownSeconds } from '../device/device-flow.js';
import { OAuthError } from '../errors.js';
import { hashOpaqueToken } from '../tokens/index.js';
import type { Checked, Grant } from './grant.js';
import { missingParameters, type DeviceCodeRequest } from './grant-request.js';
import { loadGrantUser } from './load-grant-user.js';
import { signUserTokens } from './sign-user-tokens.js';
import { storeUserGrant } from './store-user-grant.js';

interface CheckedDevice extends Checked {
  record: DeviceCodeRecord;
  approval: DeviceApproval;
  now: number;
}

const unknownCode = () => new OAuthError('invalid_grant', 'The device code is invalid.');
const spentCode = () => new OAuthError('invalid_grant', 'The device code has already been used.');

/**
 * RFC 8628 §3.4–3.5: the device polls with its device code until the user
 * has decided on /device. Answers, in order: invalid_grant for a code this
 * client was not given (unknown, another client's, or spent: tokens come
 * once), expired_token after its 10 minutes, slow_down when it polls before
 * its interval has passed (which grows the interval by 5 seconds), then
 * authorization_pending or access_denied while the user has not approved.
 * An approved code is spent by one conditional update before any token is
 * made, so of concurrent polls exactly one gets tokens. The tokens are those
 * of the authorization code grant, for the sign-in that approved.
 */
export const deviceCodeGrant: Grant<DeviceCodeRequest, CheckedDevice> = {
  grantType: deviceCodeGrantType,
  read(form) {
    const deviceCode = form.device_code;
    if (!deviceCode) return missingParameters({ device_code: deviceCode });
    return { grantType: deviceCodeGrantType, deviceCode };
  },
  async check(request, client, deps) {
    const now = deps.clock.now();
    const hash = hashOpaqueToken(request.deviceCode);
    const record = await deps.deviceCodes.findByDeviceCode(deps.db, hash);
    // Another client's code is answered as unknown: it learns nothing about it.
    if (!record || record.clientId !== client.clientId) throw unknownCode();
    if (record.spentAt !== null) throw spentCode();
    if (record.expiresAt <= now) throw new OAuthError('expired_token', 'The device code has expired.');
    const early = record.lastPolledAt !== null && now - record.lastPolledAt < record.intervalSeconds * 1000;
    const interval = early ? record.intervalSeconds + slowDownSeconds : record.intervalSeconds;
    await deps.deviceCodes.recordPoll(deps.db, hash, now, interval);
    if (early)
      throw new OAuthError('slow_down', `Polled too fast: wait at least ${interval} seconds between requests.`);
    if (record.status === 'denied') throw new OAuthError('access_denied', 'The user denied the request.');
    if (record.approval === null)
      throw new OAuthError('authorization_pending', 'The user has not finished the authorization yet.');
    if (!(await deps.deviceCodes.spend(deps.db, hash, now))) throw spentCode();
    return { allowedScopes: record.scopes, record, approval: record.approval, now };
  },
  // Unreachable while the request carries no scope (RFC 8628 §3.4 has none).
  scopeRefusal: 'The scope may only be narrowed; not granted: ',
  async issue({ record, approval, now }, scopes, client, deps) {
    const { user, groups } = await loadGrantUser(approval.sub, scopes, deps);
    const grant: GrantRecord = {
      grantId: record.grantId,
      clientId: record.clientId,
      sub: approval.sub,
      scopes: record.scopes,
      authTime: approval.authTime,
      amr: approval.amr,
      sessionId: approval.sessionId,
      sid: approval.sid,
      claims: null,
      revokedAt: null,
      expiresAt: now,
      createdAt: now,
    };
    const signed = await signUserTokens({ client, user, groups, grant, scopes, nonce: null }, deps);
    const tokens = await storeUserGrant(grant, client, signed, deps);
    // The spend above lets one poll through; a grant stored already means the code was used.
    if (tokens === null) throw spentCode();
    return tokens;
  },
};
