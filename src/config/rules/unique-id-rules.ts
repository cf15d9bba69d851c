import type { ConfigRule } from './config-rule.js';
import { findDuplicates } from './find-duplicates.js';

/* Identifiers that apply, the database and URLs key on: each must be unique in its list. */

export const checkUniqueUserSubs: ConfigRule = (config) => findDuplicates(config.users, 'users', 'sub');

// E-mails are compared case-insensitively (docs/http-api.md, "Admin API").
export const checkUniqueUserEmails: ConfigRule = (config) =>
  findDuplicates(config.users, 'users', 'email', { caseInsensitive: true });

export const checkUniqueClientIds: ConfigRule = (config) => findDuplicates(config.clients, 'clients', 'client_id');

export const checkUniqueTermIds: ConfigRule = (config) => findDuplicates(config.terms, 'terms', 'id');

export const checkUniqueIdentityProviderIds: ConfigRule = (config) =>
  findDuplicates(config.identity_providers, 'identity_providers', 'id');

export const checkUniqueGroupIds: ConfigRule = (config) => findDuplicates(config.groups, 'groups', 'id');
