/**
 * The terminal client of the admin API (`idp admin …`, docs/cli-admin.md).
 *
 * Flow: `login` posts to /api/auth/login and keeps `{ url, cookie }` in the
 * credential store (0600 file in a 0700 directory); every other command opens
 * a client from it (openAdminClient), calls one admin route with global fetch
 * (sendRequest), then prints a table or detail view for people, or the API's
 * JSON with --json. API errors travel as AdminApiError and are printed once,
 * as `CODE: message`, by runAdminCommand.
 */
export { createAdminClient, type AdminClient } from './admin-client.js';
export { AdminApiError } from './admin-api-error.js';
export {
  credentialsPath,
  loadCredentials,
  saveCredentials,
  removeCredentials,
  type Credentials,
} from './credential-store.js';
export { openAdminClient } from './open-admin-client.js';
export type * from './admin-api-types.js';
