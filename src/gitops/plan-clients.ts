import type { ClientConfig } from '../config/types.js';
import type { Tx } from '../storage/repositories.js';
import type { ClientRecord } from '../model/index.js';
import { byKey, diffFields, listFields, type FieldSpec } from './field-spec.js';
import type { ApplyConflict } from './apply-conflict-error.js';
import type { GitopsStore } from './gitops-store.js';
import { hashClientSecret } from '../clients/hash-client-secret.js';
import type { Change, PlanWrites } from './plan.js';

type DesiredClient = Omit<ClientRecord, 'createdAt' | 'updatedAt'>;

const clientFields: FieldSpec<DesiredClient>[] = [
  { field: 'name', property: 'name' },
  { field: 'client_secret', property: 'secretHash', sensitive: true },
  { field: 'redirect_uris', property: 'redirectUris' },
  { field: 'post_logout_redirect_uris', property: 'postLogoutRedirectUris' },
  { field: 'grant_types', property: 'grantTypes' },
  { field: 'token_endpoint_auth_method', property: 'tokenEndpointAuthMethod' },
  { field: 'scopes', property: 'scopes' },
  { field: 'require_pkce', property: 'requirePkce' },
  { field: 'skip_consent', property: 'skipConsent' },
  { field: 'id_token_signed_response_alg', property: 'idTokenSignedResponseAlg' },
];

/** A plaintext secret is stored as its SHA-256; a configured argon2id hash as is; none for public clients. */
function storedSecret(client: ClientConfig): string | null {
  if (client.clientSecret !== null) return hashClientSecret(client.clientSecret);
  return client.clientSecretHash;
}

function toDesired(client: ClientConfig): DesiredClient {
  return {
    clientId: client.clientId,
    name: client.name,
    secretHash: storedSecret(client),
    redirectUris: client.redirectUris,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    grantTypes: client.grantTypes,
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
    scopes: client.scopes,
    requirePkce: client.requirePkce,
    skipConsent: client.skipConsent,
    idTokenSignedResponseAlg: client.idTokenSignedResponseAlg,
    managedBy: 'config',
  };
}

/**
 * Config clients against the database's clients. A config-managed client
 * that left the file is removed (deleted, its tokens revoked); a client the
 * database manages is never touched, and a config client reusing its
 * client_id is a conflict.
 */
export async function planClients(
  tx: Tx,
  clients: ClientConfig[],
  store: GitopsStore,
): Promise<{ changes: Change[]; writes: PlanWrites['clients']; problems: ApplyConflict[] }> {
  const stored = new Map((await store.clients.listAll(tx)).map((c) => [c.clientId, c]));
  const changes: Change[] = [];
  const problems: ApplyConflict[] = [];
  const writes: PlanWrites['clients'] = { create: [], update: [], remove: [] };
  const wanted = new Set<string>();

  clients.forEach((client, index) => {
    wanted.add(client.clientId);
    const desired = toDesired(client);
    const current = stored.get(client.clientId);
    if (!current) {
      changes.push({
        kind: 'client',
        action: 'create',
        key: client.clientId,
        fields: listFields(clientFields, desired),
      });
      writes.create.push(desired);
    } else if (current.managedBy !== 'config') {
      problems.push({
        path: ['clients', index],
        message: `client_id "${client.clientId}" is already taken by a database-managed client ("${current.name}")`,
      });
    } else {
      const diff = diffFields(clientFields, current, desired);
      if (diff.fields.length === 0) return;
      changes.push({ kind: 'client', action: 'update', key: client.clientId, fields: diff.fields });
      writes.update.push({ clientId: client.clientId, changes: diff.changes });
    }
  });

  for (const current of stored.values()) {
    if (wanted.has(current.clientId) || current.managedBy !== 'config') continue;
    changes.push({ kind: 'client', action: 'remove', key: current.clientId, fields: [] });
    writes.remove.push(current.clientId);
  }
  changes.sort(byKey);
  return { changes, writes, problems };
}
