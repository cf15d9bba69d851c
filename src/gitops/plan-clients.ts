import type { ClientConfig } from '../config/types.js';
import type { ClientAccess, ClientRecord } from '../model/index.js';
import { byKey, diffFields, listFields, plannedFields, type FieldSpec } from './field-spec.js';
import { clientFields } from '../model/client-fields.js';
import type { EntityField } from '../model/entity-fields.js';
import type { ApplyConflict } from './apply-conflict-error.js';
import { hashClientSecret } from '../clients/hash-client-secret.js';
import type { Change, PlanWrites } from './plan.js';

type DesiredClient = Omit<ClientRecord, 'createdAt' | 'updatedAt'>;

/** `access` as the file writes it: snake_case, without the members it leaves out (null). */
function accessInFileForm(value: unknown): Record<string, unknown> | null {
  if (value === null) return null;
  const access = value as ClientAccess;
  return {
    ...(access.groups !== null ? { groups: access.groups } : {}),
    ...(access.roles !== null ? { roles: access.roles } : {}),
    ...(access.secondFactor !== null ? { second_factor: access.secondFactor } : {}),
  };
}

const plannedClientFields: FieldSpec<DesiredClient>[] = plannedFields<DesiredClient>(
  clientFields as readonly EntityField<DesiredClient>[],
).map((spec) => (spec.property === 'access' ? { ...spec, show: accessInFileForm } : spec));

/** A plaintext secret is stored as its SHA-256; a configured argon2id hash as is; none for public clients. */
function storedSecret(clientSecret: string | null, clientSecretHash: string | null): string | null {
  return clientSecret !== null ? hashClientSecret(clientSecret) : clientSecretHash;
}

/** The record the file asks for: what it declares, with the secret as stored. */
function toDesired(client: ClientConfig): DesiredClient {
  const { clientSecret, clientSecretHash, ...declared } = client;
  return { ...declared, secretHash: storedSecret(clientSecret, clientSecretHash), managedBy: 'config' };
}

/**
 * Config clients against the database's clients (all of them, read once by the plan). A config-managed client
 * that left the file is removed (deleted, its tokens revoked); a client the
 * database manages is never touched, and a config client reusing its
 * client_id is a conflict.
 */
export function planClients(
  clients: ClientConfig[],
  storedClients: ClientRecord[],
): { changes: Change[]; writes: PlanWrites['clients']; problems: ApplyConflict[] } {
  const stored = new Map(storedClients.map((c) => [c.clientId, c]));
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
        fields: listFields(plannedClientFields, desired),
      });
      writes.create.push(desired);
    } else if (current.managedBy !== 'config') {
      problems.push({
        path: ['clients', index],
        message: `client_id "${client.clientId}" is already taken by a database-managed client ("${current.name}")`,
      });
    } else {
      const diff = diffFields(plannedClientFields, current, desired);
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
