import type { Repositories } from '../../../src/storage/repositories.js';
import type { Subject } from './subject.js';
import { describeUsers } from './users.js';
import { describeSessions } from './sessions.js';
import { describeLoginRateLimits } from './login-rate-limits.js';
import { describeTotp } from './totp.js';
import { describeRecoveryCodes } from './recovery-codes.js';
import { describePasskeys } from './passkeys.js';
import { describeWebAuthnChallenges } from './webauthn-challenges.js';
import { describeLinkTokens } from './link-tokens.js';
import { describeTermAcceptances } from './term-acceptances.js';
import { describeAuthorizationCodes } from './authorization-codes.js';
import { describeConsents } from './consents.js';
import { describeClients } from './clients.js';
import { describeClientProbe } from './client-probe.js';
import { describeTerms } from './terms.js';
import { describeIdentityProviders } from './identity-providers.js';
import { describeConnections } from './connections.js';
import { describeUpstreamStates } from './upstream-states.js';
import { describeSettings } from './settings.js';
import { describeBackgroundJobs } from './background-jobs.js';
import { describeSchedulerLeases } from './scheduler-leases.js';
import { describeSigningKeys } from './signing-keys.js';
import { describeTokens } from './tokens.js';
import { describeCacheGeneration } from './cache-generation.js';
import { describeEvents } from './events.js';
import { describeGrantRevokers } from './grant-revokers.js';
import { describeGroups } from './groups.js';
import { describePushedAuthorizationRequests } from './pushed-authorization-requests.js';
import { describeDeviceCodes } from './device-codes.js';
import { describeFirstAdminTokens } from './first-admin-tokens.js';

/**
 * One block per member of `Repositories`, in the order of repositories.ts.
 * A repository added there without a block here fails the suite.
 */
export const repositoryBlocks: Record<keyof Repositories, (subject: Subject) => void> = {
  users: describeUsers,
  sessions: describeSessions,
  loginRateLimits: describeLoginRateLimits,
  totp: describeTotp,
  recoveryCodes: describeRecoveryCodes,
  passkeys: describePasskeys,
  webauthnChallenges: describeWebAuthnChallenges,
  linkTokens: describeLinkTokens,
  termAcceptances: describeTermAcceptances,
  authorizationCodes: describeAuthorizationCodes,
  consents: describeConsents,
  clients: describeClients,
  clientProbe: describeClientProbe,
  terms: describeTerms,
  identityProviders: describeIdentityProviders,
  connections: describeConnections,
  upstreamStates: describeUpstreamStates,
  settings: describeSettings,
  backgroundJobs: describeBackgroundJobs,
  schedulerLeases: describeSchedulerLeases,
  signingKeys: describeSigningKeys,
  tokens: describeTokens,
  cacheGeneration: describeCacheGeneration,
  events: describeEvents,
  groups: describeGroups,
  pushedAuthorizationRequests: describePushedAuthorizationRequests,
  deviceCodes: describeDeviceCodes,
  firstAdminTokens: describeFirstAdminTokens,
  grantRevokers: describeGrantRevokers,
};
