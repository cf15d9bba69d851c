import type { RecoveryCodeRepository } from '../repositories.js';
import { oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';

export const knexRecoveryCodeRepository = onKnex<RecoveryCodeRepository>({
  async replace(tx, sub, codeHashes, now) {
    await tx('recovery_codes').where({ sub }).delete();
    if (codeHashes.length === 0) return;
    await tx('recovery_codes').insert(
      codeHashes.map((codeHash) => ({ sub, code_hash: codeHash, used_at: null, created_at: now })),
    );
  },
  async use(tx, sub, codeHash, now) {
    const changed = await tx('recovery_codes')
      .where({ sub, code_hash: codeHash })
      .whereNull('used_at')
      .update({ used_at: now });
    return changed === 1;
  },
  async countUnused(tx, subs) {
    const counts = new Map<string, number>();
    for (const list of oneOfLists(tx, subs)) {
      const rows = (await whereOneOf(tx, 'recovery_codes', 'sub', list)
        .whereNull('used_at')
        .groupBy('sub')
        .select('sub')
        .count({ unused: '*' })) as { sub: string; unused: number | string }[];
      for (const row of rows) counts.set(row.sub, Number(row.unused));
    }
    return counts;
  },
  deleteBySub(tx, sub) {
    return tx('recovery_codes').where({ sub }).delete();
  },
});
