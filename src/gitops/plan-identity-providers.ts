import type { IdentityProviderConfig } from '../config/types.js';
import type { Tx } from '../storage/repositories.js';
import type { IdentityProviderRecord } from '../model/index.js';
import { byKey, diffFields, listFields, type FieldSpec } from './field-spec.js';
import { fingerprintSecret } from './fingerprint-secret.js';
import type { GitopsStore } from './gitops-store.js';
import type { Change, PlanWrites } from './plan.js';

type DesiredProvider = Omit<IdentityProviderRecord, 'createdAt' | 'updatedAt'>;

const providerFields: FieldSpec<DesiredProvider>[] = [
  { field: 'type', property: 'type' },
  { field: 'enabled', property: 'enabled' },
  { field: 'display_name', property: 'displayName' },
  { field: 'icon_url', property: 'iconUrl' },
  { field: 'client_id', property: 'clientId' },
  { field: 'client_secret', property: 'clientSecretFingerprint', sensitive: true },
  { field: 'authorization_url', property: 'authorizationUrl' },
  { field: 'token_url', property: 'tokenUrl' },
  { field: 'userinfo_url', property: 'userinfoUrl' },
  { field: 'email_url', property: 'emailUrl' },
  { field: 'scopes', property: 'scopes' },
  { field: 'email_conflict_strategy', property: 'emailConflictStrategy' },
];

function toDesired(provider: IdentityProviderConfig, fingerprintKey: string): DesiredProvider {
  return {
    id: provider.id,
    type: provider.type,
    enabled: provider.enabled,
    displayName: provider.displayName,
    iconUrl: provider.iconUrl,
    clientId: provider.clientId,
    clientSecretFingerprint: fingerprintSecret(fingerprintKey, provider.clientSecret),
    authorizationUrl: provider.authorizationUrl,
    tokenUrl: provider.tokenUrl,
    userinfoUrl: provider.userinfoUrl,
    emailUrl: provider.emailUrl,
    scopes: provider.scopes,
    emailConflictStrategy: provider.emailConflictStrategy,
  };
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
        fields: listFields(providerFields, desired),
      });
      writes.save.push(desired);
      continue;
    }
    const diff = diffFields(providerFields, current, desired);
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
