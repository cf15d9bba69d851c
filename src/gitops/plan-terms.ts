import type { TermConfig } from '../config/types.js';
import type { Tx } from '../storage/repositories.js';
import type { TermRecord } from '../model/index.js';
import { byKey, diffFields, listFields, plannedFields } from './field-spec.js';
import { termFields } from '../model/term-fields.js';
import type { EntityField } from '../model/entity-fields.js';
import type { GitopsStore } from './gitops-store.js';
import type { Change, PlanWrites } from './plan.js';

type DesiredTerm = Omit<TermRecord, 'createdAt' | 'updatedAt'>;

const plannedTermFields = plannedFields<DesiredTerm>(termFields as readonly EntityField<DesiredTerm>[]);

function toDesired(term: TermConfig): DesiredTerm {
  return {
    id: term.id,
    required: term.required,
    consentMode: term.consentMode,
    version: term.version,
    content: sortedContent(term.content),
  };
}

/** Terms are all config-managed: created, updated (a new version adds a history row), removed when they leave the file. */
export async function planTerms(
  tx: Tx,
  terms: TermConfig[],
  store: GitopsStore,
): Promise<{ changes: Change[]; writes: PlanWrites['terms'] }> {
  const stored = new Map((await store.terms.listAll(tx)).map((t) => [t.id, t]));
  const changes: Change[] = [];
  const writes: PlanWrites['terms'] = { save: [], remove: [] };

  for (const term of terms) {
    const desired = toDesired(term);
    const current = stored.get(term.id);
    stored.delete(term.id);
    if (!current) {
      changes.push({ kind: 'term', action: 'create', key: term.id, fields: listFields(plannedTermFields, desired) });
      writes.save.push(desired);
      continue;
    }
    const diff = diffFields(plannedTermFields, { ...current, content: sortedContent(current.content) }, desired);
    if (diff.fields.length === 0) continue;
    changes.push({ kind: 'term', action: 'update', key: term.id, fields: diff.fields });
    writes.save.push(desired);
  }

  for (const id of stored.keys()) {
    changes.push({ kind: 'term', action: 'remove', key: id, fields: [] });
    writes.remove.push(id);
  }
  changes.sort(byKey);
  return { changes, writes };
}

/** Locales sorted and fields in one order, so that reordering the file's map is no change. */
function sortedContent(content: TermRecord['content']): TermRecord['content'] {
  return Object.fromEntries(
    Object.keys(content)
      .sort()
      .map((locale) => [
        locale,
        { title: content[locale].title, type: content[locale].type, content: content[locale].content },
      ]),
  );
}
