import type { ClientRepository } from '../repositories.js';
import type { ClientRecord } from '../../model/index.js';
import { inBatches } from './in-batches.js';
import { oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface ClientRow {
  client_id: string;
  name: string;
  secret_hash: string | null;
  redirect_uris: string;
  post_logout_redirect_uris: string;
  grant_types: string;
  token_endpoint_auth_method: ClientRecord['tokenEndpointAuthMethod'];
  scopes: string;
  require_pkce: boolean | number;
  skip_consent: boolean | number;
  id_token_signed_response_alg: ClientRecord['idTokenSignedResponseAlg'];
  managed_by: ClientRecord['managedBy'];
  created_at: DbInteger;
  updated_at: DbInteger;
}

type ClientChanges = Partial<Omit<ClientRecord, 'clientId' | 'createdAt'>>;

/**
 * Rows per insert statement: knex writes a multi-row insert on SQLite as a
 * compound SELECT, capped at 500 terms; 400 rows also keep the bound
 * parameters far below both engines' limits.
 */
const BATCH_SIZE = 400;

function fromRow(row: ClientRow): ClientRecord {
  return {
    clientId: row.client_id,
    name: row.name,
    secretHash: row.secret_hash,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    postLogoutRedirectUris: JSON.parse(row.post_logout_redirect_uris) as string[],
    grantTypes: JSON.parse(row.grant_types) as ClientRecord['grantTypes'],
    tokenEndpointAuthMethod: row.token_endpoint_auth_method,
    scopes: JSON.parse(row.scopes) as string[],
    requirePkce: Boolean(row.require_pkce),
    skipConsent: Boolean(row.skip_consent),
    idTokenSignedResponseAlg: row.id_token_signed_response_alg,
    managedBy: row.managed_by,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toColumns(changes: ClientChanges): Partial<ClientRow> {
  const columns: Partial<ClientRow> = {};
  if (changes.name !== undefined) columns.name = changes.name;
  if (changes.secretHash !== undefined) columns.secret_hash = changes.secretHash;
  if (changes.redirectUris !== undefined) columns.redirect_uris = JSON.stringify(changes.redirectUris);
  if (changes.postLogoutRedirectUris !== undefined)
    columns.post_logout_redirect_uris = JSON.stringify(changes.postLogoutRedirectUris);
  if (changes.grantTypes !== undefined) columns.grant_types = JSON.stringify(changes.grantTypes);
  if (changes.tokenEndpointAuthMethod !== undefined)
    columns.token_endpoint_auth_method = changes.tokenEndpointAuthMethod;
  if (changes.scopes !== undefined) columns.scopes = JSON.stringify(changes.scopes);
  if (changes.requirePkce !== undefined) columns.require_pkce = changes.requirePkce;
  if (changes.skipConsent !== undefined) columns.skip_consent = changes.skipConsent;
  if (changes.idTokenSignedResponseAlg !== undefined)
    columns.id_token_signed_response_alg = changes.idTokenSignedResponseAlg;
  if (changes.managedBy !== undefined) columns.managed_by = changes.managedBy;
  if (changes.updatedAt !== undefined) columns.updated_at = changes.updatedAt;
  return columns;
}

function toRow(client: ClientRecord): ClientRow {
  return { client_id: client.clientId, created_at: client.createdAt, ...toColumns(client) } as ClientRow;
}

export const knexClientRepository = onKnex<ClientRepository>({
  async findById(tx, clientId) {
    const row = (await tx<ClientRow>('clients').where({ client_id: clientId }).first()) as ClientRow | undefined;
    return row ? fromRow(row) : null;
  },

  async listAll(tx) {
    const rows = await tx<ClientRow>('clients').orderBy('client_id');
    return rows.map(fromRow);
  },

  async insertMany(tx, clients) {
    for (const batch of inBatches(clients, BATCH_SIZE)) await tx('clients').insert(batch.map(toRow));
  },

  async update(tx, clientId, changes) {
    const columns = toColumns(changes);
    if (Object.keys(columns).length > 0) await tx('clients').where({ client_id: clientId }).update(columns);
  },

  async deleteMany(tx, clientIds) {
    for (const list of oneOfLists(tx, clientIds)) await whereOneOf(tx, 'clients', 'client_id', list).delete();
  },
});
