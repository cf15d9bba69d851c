import type { ConfigFile } from '../file-types.js';
import type { ConfigRule, RuleProblem } from './config-rule.js';
import {
  checkUniqueClientIds,
  checkUniqueGroupIds,
  checkUniqueIdentityProviderIds,
  checkUniqueTermIds,
  checkUniqueUserEmails,
  checkUniqueUserSubs,
} from './unique-id-rules.js';
import { checkUserEmails } from './check-user-emails.js';
import { checkUserProfiles } from './check-user-profiles.js';
import { checkPasswordHashes } from './check-password-hashes.js';
import { checkClientAuthentication } from './check-client-authentication.js';
import { checkRedirectUris } from './check-redirect-uris.js';
import { checkBackchannelLogoutUri } from './check-backchannel-logout-uri.js';
import { checkAuthorizationCodeRedirects } from './check-authorization-code-redirects.js';
import { checkDeviceCodeScopes } from './check-device-code-scopes.js';
import { checkGenericOauth } from './check-generic-oauth.js';
import { checkIdentityProviders } from './check-identity-providers.js';
import { checkCleanupCron } from './check-cleanup-cron.js';
import { checkDatabase } from './check-database.js';
import { checkLocales } from './check-locales.js';
import { checkFrontend } from './check-frontend.js';
import { checkRegistration } from './check-registration.js';
import { checkSecret } from './check-secret.js';
import { checkTrustProxy } from './check-trust-proxy.js';
import { checkTermLinks } from './check-term-links.js';
import { checkBranding } from './check-branding.js';
import { checkBaseUrl } from './check-base-url.js';
import { checkGroupReferences } from './check-group-references.js';
import { checkGroupMembers } from './check-group-members.js';
import { checkGroupUpstream } from './check-group-upstream.js';
import { checkForwardAuth } from './check-forward-auth.js';
import { checkMetrics } from './check-metrics.js';

/**
 * Phase 4: the cross-field rules the schema cannot express, in the order
 * their problems are most useful to read. Term content types (link | text)
 * are an enum of the schema, so they are checked in phase 3.
 */
export const configRules: readonly ConfigRule[] = [
  checkBaseUrl,
  checkTrustProxy,
  checkUniqueUserSubs,
  checkUniqueUserEmails,
  checkUserEmails,
  checkUserProfiles,
  checkPasswordHashes,
  checkUniqueClientIds,
  checkClientAuthentication,
  checkRedirectUris,
  checkBackchannelLogoutUri,
  checkAuthorizationCodeRedirects,
  checkDeviceCodeScopes,
  checkUniqueTermIds,
  checkTermLinks,
  checkUniqueIdentityProviderIds,
  checkGenericOauth,
  checkIdentityProviders,
  checkUniqueGroupIds,
  checkGroupReferences,
  checkGroupMembers,
  checkGroupUpstream,
  checkForwardAuth,
  checkCleanupCron,
  checkMetrics,
  checkDatabase,
  checkLocales,
  checkBranding,
  checkFrontend,
  checkRegistration,
  checkSecret,
];

/**
 * Runs every rule. On a file that failed the shape check a rule may meet
 * values of the wrong type; such a rule is skipped (the shape problems
 * already explain it) so that the other rules still report in the same run.
 */
export function checkRules(config: ConfigFile, shapeIsValid: boolean): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const rule of configRules) {
    if (shapeIsValid) {
      for (const problem of rule(config)) problems.push(problem);
      continue;
    }
    try {
      for (const problem of rule(config)) problems.push(problem);
    } catch {
      // Malformed input this rule cannot read; see above.
    }
  }
  return problems;
}
