import type { AuthorizationCodeRepository } from '../repositories.js';
import type { AuthorizationCodeRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { parseAmr } from './parse-amr.js';
import type { DbInteger } from './db-integer.js';

interface AuthorizationCodeRow {
  code_hash: string;
  grant_id: string;
  client_id: string;
  sub: string;
  redirect_uri: string;
  scopes: string;
  nonce: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
  auth_time: DbInteger;
  amr: string | null;
  session_id: string | null;
  expires_at: DbInteger;
  consumed_at: DbInteger | null;
  created_at: DbInteger;
}

function fromRow(row: AuthorizationCodeRow): AuthorizationCodeRecord {
  return {
    codeHash: row.code_hash,
    grantId: row.grant_id,
    clientId: row.client_id,
    sub: row.sub,
    redirectUri: row.redirect_uri,
    scopes: row.scopes === '' ? [] : row.scopes.split(' '),
    nonce: row.nonce,
    codeChallenge: row.code_challenge,
    codeChallengeMethod: row.code_challenge_method === 'S256' ? 'S256' : null,
    authTime: Number(row.auth_time),
    amr: parseAmr(row.amr),
    sessionId: row.session_id,
    expiresAt: Number(row.expires_at),
    consumedAt: row.consumed_at === null ? null : Number(row.consumed_at),
    createdAt: Number(row.created_at),
  };
}

function toRow(record: AuthorizationCodeRecord): AuthorizationCodeRow {
  return {
    code_hash: record.codeHash,
    grant_id: record.grantId,
    client_id: record.clientId,
    sub: record.sub,
    redirect_uri: record.redirectUri,
    scopes: record.scopes.join(' '),
    nonce: record.nonce,
    code_challenge: record.codeChallenge,
    code_challenge_method: record.codeChallengeMethod,
    auth_time: record.authTime,
    amr: JSON.stringify(record.amr),
    session_id: record.sessionId,
    expires_at: record.expiresAt,
    consumed_at: record.consumedAt,
    created_at: record.createdAt,
  };
}

export const knexAuthorizationCodeRepository = onKnex<AuthorizationCodeRepository>({
  async insert(tx, record) {
    await tx('authorization_codes').insert(toRow(record));
  },
  async consume(tx, codeHash, now) {
    // The conditional update is the single-use guarantee: both engines apply
    // it under a row lock, so only one concurrent caller changes the row.
    const changed = await tx('authorization_codes')
      .where({ code_hash: codeHash })
      .whereNull('consumed_at')
      .update({ consumed_at: now });
    const row = (await tx('authorization_codes').where({ code_hash: codeHash }).first()) as
      AuthorizationCodeRow | undefined;
    if (!row) return null;
    return { record: fromRow(row), alreadyConsumed: changed === 0 };
  },
  async deleteExpired(tx, now, limit) {
    const expired = tx('authorization_codes').select('code_hash').where('expires_at', '<', now).limit(limit);
    return tx('authorization_codes').whereIn('code_hash', expired).delete();
  },
  async deleteUnredeemedOutsideSession(tx, sub, keepSessionId) {
    return tx('authorization_codes')
      .where({ sub })
      .whereNull('consumed_at')
      .where((q) => q.whereNull('session_id').orWhereNot({ session_id: keepSessionId }))
      .delete();
  },
});
