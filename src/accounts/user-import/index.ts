/**
 * Moving users in from Keycloak and Auth0 (`idp import`, docs/operations.md
 * "Migrating from Keycloak and Auth0"): a reader turns an export file into
 * entries, each a user or a refusal with its reason (./keycloak-export.ts,
 * ./auth0-export.ts); createUserImport checks them against each other and
 * the database and writes the rest in one transaction (./user-import.ts).
 * Their password hashes are checked at sign-in by ../passwords.ts.
 */
export { readAuth0Export } from './auth0-export.js';
export { readKeycloakExport } from './keycloak-export.js';
export type { ImportEntry, ImportedUser, ImportRefusal } from './imported-user.js';
export { createUserImport, hashKind, type ImportPlan, type ImportSource, type UserImport } from './user-import.js';
