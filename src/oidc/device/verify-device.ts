import { runSignIn, type ReadAuthorizationRequest, type SignInDeps } from '../../interaction/index.js';
import type { Clock } from '../../clock.js';
import type { DeviceApproval, DeviceCodeRecord } from '../../model/index.js';
import type { DeviceCodeRepository, Tx } from '../../storage/repositories.js';
import type { AuthorizeClient, AuthorizeSession, RawAuthorizationParams } from '../authorize/types.js';
import { deviceRequest, deviceVerificationParams, singleParam } from './device-request.js';
import { deviceDonePath, devicePagePath } from './device-flow.js';
import { normalizeUserCode } from './user-code.js';
import type { UserCodeRateLimit } from './user-code-rate-limit.js';

export interface DeviceVerificationDeps {
  clock: Clock;
  db: Tx;
  deviceCodes: DeviceCodeRepository;
  findClient(clientId: string): Promise<AuthorizeClient | null>;
  signIn: SignInDeps;
  rateLimit: UserCodeRateLimit;
}

export interface DeviceVerificationInput {
  params: RawAuthorizationParams;
  session: AuthorizeSession | null;
  clientAddress: string;
}

/** Where the browser goes: a sign-in page, the done page, or back to /device with the error. */
export interface DeviceVerificationOutcome {
  location: string;
}

/** The page's errors, as the JSON API would name them (docs/ui.md, "/device"). */
export type DeviceCodeError = 'INVALID_USER_CODE' | 'TOO_MANY_REQUESTS';

/**
 * The device verification (RFC 8628 §3.3), behind GET
 * /oauth2/device_verification?user_code=…, where /device sends the code
 * the user typed. The code is looked up within the rate limit of wrong
 * codes (./user-code-rate-limit.ts); a pending, unexpired one becomes a
 * request that runs THE sign-in steps of src/interaction, as the
 * authorization endpoint runs them for its own, with the cookie's session:
 * each page (sign-in, second factor, access, terms, consent) comes back
 * here. When every step has passed (the consent step asks every time, and
 * only that user's Allow counts), the request is approved with this
 * sign-in; a refusal (Deny, no access, terms declined) denies it, and the
 * device's next poll gets access_denied. Either way the browser goes to
 * /device/done.
 */
export async function verifyDevice(
  input: DeviceVerificationInput,
  deps: DeviceVerificationDeps,
): Promise<DeviceVerificationOutcome> {
  const typed = singleParam(input.params, 'user_code') ?? '';
  const found = await deps.rateLimit.lookUp(input.clientAddress, () => findPending(typed, deps));
  if (!found.ok) return backToPage(typed, found.retryAfterSeconds);
  const { record, client } = found.value;
  const request = deviceRequest(record, client, input.params);
  const identity = input.session && { kind: 'session' as const, ...input.session };
  const result = await runSignIn({ identity, request }, deps.signIn);
  const now = deps.clock.now();
  if (result.kind === 'page') return { location: result.location };
  if (result.kind === 'complete' && input.session) {
    const { sub, sessionId, sid, amr, authTime } = input.session;
    const approval: DeviceApproval = { sub, sessionId, sid, amr, authTime };
    const approved = await deps.deviceCodes.decide(deps.db, record.userCode, approval, now);
    return approved ? done('approved') : backToPage(typed, null);
  }
  // A refusal (the run starts from a session or none, so nothing else can end it): the device hears access_denied.
  await deps.deviceCodes.decide(deps.db, record.userCode, 'denied', now);
  return done('denied');
}

/**
 * How the consent and access-denied pages read back the device's request
 * behind their return_to: null when it is no path to the device
 * verification, or its code is no pending request (any more).
 */
export function deviceRequestReader(
  deps: Pick<DeviceVerificationDeps, 'clock' | 'db' | 'deviceCodes' | 'findClient'>,
): ReadAuthorizationRequest {
  return async (returnTo) => {
    const params = deviceVerificationParams(returnTo);
    const found = params && (await findPending(singleParam(params, 'user_code') ?? '', deps));
    return found ? deviceRequest(found.record, found.client, params) : null;
  };
}

async function findPending(
  typed: string,
  deps: Pick<DeviceVerificationDeps, 'clock' | 'db' | 'deviceCodes' | 'findClient'>,
): Promise<{ record: DeviceCodeRecord; client: AuthorizeClient } | null> {
  const userCode = normalizeUserCode(typed);
  const record = userCode === null ? null : await deps.deviceCodes.findByUserCode(deps.db, userCode);
  if (!record || record.status !== 'pending' || record.expiresAt <= deps.clock.now()) return null;
  const client = await deps.findClient(record.clientId);
  return client && { record, client };
}

function backToPage(typed: string, retryAfterSeconds: number | null): DeviceVerificationOutcome {
  const query = new URLSearchParams({ user_code: typed.slice(0, 16) });
  const error: DeviceCodeError = retryAfterSeconds === null ? 'INVALID_USER_CODE' : 'TOO_MANY_REQUESTS';
  query.set('error', error);
  if (retryAfterSeconds !== null) query.set('retry_after', String(retryAfterSeconds));
  return { location: `${devicePagePath}?${query.toString()}` };
}

function done(result: 'approved' | 'denied'): DeviceVerificationOutcome {
  return { location: `${deviceDonePath}?${new URLSearchParams({ result }).toString()}` };
}
