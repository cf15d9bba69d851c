import type { AuthorizationCodeRepository } from '../repositories.js';
import type { AuthorizationCodeRecord, RequestedClaims } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { oneOfLists, whereOneOf } from './one-of.js';
import { defineTable, json, list, nullable, text, timestamp, type Row } from './define-table.js';

const codes = defineTable<AuthorizationCodeRecord>('authorization_codes', {
  codeHash: ['code_hash', text()],
  grantId: ['grant_id', text()],
  clientId: ['client_id', text()],
  sub: ['sub', text()],
  redirectUri: ['redirect_uri', text()],
  scopes: ['scopes', list()],
  nonce: ['nonce', nullable(text())],
  codeChallenge: ['code_challenge', nullable(text())],
  codeChallengeMethod: ['code_challenge_method', nullable(text())],
  authTime: ['auth_time', timestamp],
  amr: ['amr', list()],
  sessionId: ['session_id', nullable(text())],
  sid: ['sid', nullable(text())],
  claims: ['claims', nullable(json<RequestedClaims>())],
  expiresAt: ['expires_at', timestamp],
  consumedAt: ['consumed_at', nullable(timestamp)],
  createdAt: ['created_at', timestamp],
});

export const knexAuthorizationCodeRepository = onKnex<AuthorizationCodeRepository>({
  async insert(tx, record) {
    await tx('authorization_codes').insert(codes.toRow(record));
  },
  async consume(tx, codeHash, now) {
    // The conditional update is the single-use guarantee: both engines apply
    // it under a row lock, so only one concurrent caller changes the row.
    const changed = await tx('authorization_codes')
      .where({ code_hash: codeHash })
      .whereNull('consumed_at')
      .update({ consumed_at: now });
    const row = (await tx('authorization_codes').where({ code_hash: codeHash }).first()) as Row | undefined;
    if (!row) return null;
    return { record: codes.fromRow(row), alreadyConsumed: changed === 0 };
  },
  async deleteExpired(tx, now, limit) {
    const expired = tx('authorization_codes').select('code_hash').where('expires_at', '<', now).limit(limit);
    return tx('authorization_codes').whereIn('code_hash', expired).delete();
  },
  async deleteUnredeemedOfSessions(tx, sessionIds) {
    for (const list of oneOfLists(tx, sessionIds))
      await whereOneOf(tx, 'authorization_codes', 'session_id', list).whereNull('consumed_at').delete();
  },
  async deleteUnredeemedOutsideSession(tx, sub, keepSessionId) {
    return tx('authorization_codes')
      .where({ sub })
      .whereNull('consumed_at')
      .where((q) => q.whereNull('session_id').orWhereNot({ session_id: keepSessionId }))
      .delete();
  },
});
