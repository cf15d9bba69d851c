import type { IdentityProviderConfig } from '../config/types.js';
import type { Tx } from '../storage/repositories.js';
import type { IdentityProviderRecord } from '../model/index.js';
import { byKey, diffFields, listFields, plannedFields } from './field-spec.js';
import { identityProviderFields } from '../model/identity-provider-fields.js';
import type { EntityField } from '../model/entity-fields.js';
import { fingerprintSecret } from './fingerprint-secret.js';
import type { GitopsStore } from './gitops-store.js';
import type { Change, PlanWrites } from './plan.js';

type DesiredProvider = Omit<IdentityProviderRecord, 'createdAt' | 'updatedAt'>;

const plannedProviderFields = plannedFields<DesiredProvider>(
  identityProviderFields as readonly EntityField<DesiredProvider>[],
);

function toDesired(provider: IdentityProviderConfig, fingerprintKey: string): DesiredProvider {
  const { clientSecret, ...declared } = provider;
  return { ...declared, clientSecretFingerprint: fingerprintSecret(fingerprintKey, clientSecret) };
}

/** Identity providers are all config-managed: created, updated, removed when they leave the file. */
export async function planIdentityProviders(
  tx: Tx,
  providers: IdentityProviderConfig[],
  fingerprintKey: string,
  store: GitopsStore,
): Promise<{ changes: Change[]; writes: PlanWrites['identityProviders'] }> {
  const stored = new Map((await store.identityProviders.listAll(tx)).map((p) => [p.id, p]));
  const changes: Change[] = [];
  const writes: PlanWrites['identityProviders'] = { save: [], remove: [] };

  for (const provider of providers) {
    const desired = toDesired(provider, fingerprintKey);
    const current = stored.get(provider.id);
    stored.delete(provider.id);
    if (!current) {
      changes.push({
        kind: 'identity_provider',
        action: 'create',
        key: provider.id,
        fields: listFields(plannedProviderFields, desired),
      });
      writes.save.push(desired);
      continue;
    }
    const diff = diffFields(plannedProviderFields, current, desired);
    if (diff.fields.length === 0) continue;
    changes.push({ kind: 'identity_provider', action: 'update', key: provider.id, fields: diff.fields });
    writes.save.push(desired);
  }

  for (const id of stored.keys()) {
    changes.push({ kind: 'identity_provider', action: 'remove', key: id, fields: [] });
    writes.remove.push(id);
  }
  changes.sort(byKey);
  return { changes, writes };
}
