import { verifyPassword } from '../accounts/index.js';
import { createUserGroupReader } from '../access/user-groups.js';
import type { AreaBase } from '../area-wiring.js';
import type { EventLog } from '../events/index.js';
import {
  createAccessDenial,
  createConsentService,
  type ReadAuthorizationRequest,
  type SignInDeps,
} from '../interaction/index.js';
import type { SigningPool } from '../keys/index.js';
import type { Tx } from '../storage/repositories.js';
import { deriveKey } from '../security/index.js';
import { createAuthorizeDeps } from './authorize/create-authorize-deps.js';
import { createPushedRequests } from './authorize/pushed-requests.js';
import { authorizationRequestReader } from './authorize/read-authorization-request.js';
import { createBackchannelLogoutJob } from './backchannel-logout/index.js';
import { createProtocolDeps } from './create-protocol-deps.js';
import type { ProtocolDeps } from './protocol-deps.js';
import { createUserCodeRateLimit, deviceRequestReader, type DeviceVerificationDeps } from './device/index.js';

export type ProtocolWiring = Awaited<ReturnType<typeof wireProtocol>>;

/**
 * The protocol area: the OpenID Connect endpoints (HttpDeps protocol). It
 * wires the services of the consent and access-denied pages too, which read
 * back the authorization request they answer through the authorization
 * endpoint's validation (the interaction area, below this one, cannot). Loads or creates the signing
 * keys; their periodic refresh is the caller's to start.
 */
export async function wireProtocol(
  base: AreaBase,
  needs: {
    signInSteps: SignInDeps;
    signingPool: SigningPool;
    events: EventLog;
    onTokensIssued: ProtocolDeps['onTokensIssued'];
    backchannelLogoutTimeoutMs?: number;
  },
) {
  const { config, storage, clock, secret } = base;
  const { db, repositories } = storage;
  const pushedRequests = createPushedRequests({
    db,
    repository: repositories.pushedAuthorizationRequests,
    clock,
    sealKey: deriveKey(secret, 'pushed authorization request'),
  });
  const authorize = createAuthorizeDeps({
    db,
    clients: repositories.clients,
    codes: repositories.authorizationCodes,
    signIn: needs.signInSteps,
    pushedRequests,
    config,
    clock,
  });
  const engine = await createProtocolDeps({
    config,
    secret,
    clock,
    db,
    transaction: <T>(work: (tx: Tx) => Promise<T>) => storage.transaction(work),
    signingPool: needs.signingPool,
    repositories: {
      signingKeys: repositories.signingKeys,
      clients: repositories.clients,
      clientProbe: repositories.clientProbe,
      tokens: repositories.tokens,
      codes: repositories.authorizationCodes,
      deviceCodes: repositories.deviceCodes,
      users: repositories.users,
      groups: repositories.groups,
      sessions: repositories.sessions,
    },
    readCacheGeneration: () => storage.readCacheGeneration(),
    databaseConnections: storage.engine === 'sqlite' ? 1 : config.database.pool.max,
    verifyArgon2: verifyPassword,
    events: needs.events,
    onTokensIssued: needs.onTokensIssued,
  });
  const device: DeviceVerificationDeps = {
    clock,
    db,
    deviceCodes: repositories.deviceCodes,
    findClient: (clientId) => authorize.findClient(clientId),
    signIn: needs.signInSteps,
    rateLimit: createUserCodeRateLimit({
      db,
      counters: repositories.loginRateLimits,
      limits: config.security.loginRateLimit,
      clock,
    }),
  };
  const readAuthorization = authorizationRequestReader(authorize);
  const readDevice = deviceRequestReader(device);
  // The consent and access-denied pages answer authorization requests and device requests alike.
  const readRequest: ReadAuthorizationRequest = async (returnTo) =>
    (await readDevice(returnTo)) ?? readAuthorization(returnTo);
  const userGroups = createUserGroupReader({ db, groups: repositories.groups });
  const consent = createConsentService({
    storage,
    events: needs.events,
    readRequest,
    userGroups,
    clock,
    confirmDevice: (userCode, sub) => repositories.deviceCodes.confirm(db, userCode, sub, clock.now()),
  });
  const accessDenial = createAccessDenial({ readRequest, signIn: needs.signInSteps });
  const backchannelLogout = createBackchannelLogoutJob(engine, { timeoutMs: needs.backchannelLogoutTimeoutMs });
  return { services: { engine, authorize, consent, accessDenial, device }, backchannelLogout };
}
