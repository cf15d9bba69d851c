import type { Knex } from 'knex';
import type { TokenRepository } from '../repositories.js';
import type { GrantRecord, RefreshTokenRecord } from '../../model/index.js';
import { inBatches } from './in-batches.js';
import { oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';
import { parseAmr } from './parse-amr.js';

interface GrantRow {
  grant_id: string;
  client_id: string;
  sub: string;
  scopes: string;
  auth_time: number;
  amr: string | null;
  session_id: string | null;
  revoked_at: number | null;
  expires_at: number;
  created_at: number;
}

interface RefreshTokenRow {
  token_hash: string;
  grant_id: string;
  client_id: string;
  sub: string;
  scopes: string;
  expires_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
  created_at: number;
}

const splitScopes = (scopes: string) => (scopes === '' ? [] : scopes.split(' '));
const optionalNumber = (value: number | null) => (value === null ? null : Number(value));

function grantFromRow(row: GrantRow): GrantRecord {
  return {
    grantId: row.grant_id,
    clientId: row.client_id,
    sub: row.sub,
    scopes: splitScopes(row.scopes),
    authTime: Number(row.auth_time),
    amr: parseAmr(row.amr),
    sessionId: row.session_id,
    revokedAt: optionalNumber(row.revoked_at),
    expiresAt: Number(row.expires_at),
    createdAt: Number(row.created_at),
  };
}

function refreshFromRow(row: RefreshTokenRow): RefreshTokenRecord {
  return {
    tokenHash: row.token_hash,
    grantId: row.grant_id,
    clientId: row.client_id,
    sub: row.sub,
    scopes: splitScopes(row.scopes),
    expiresAt: Number(row.expires_at),
    rotatedAt: optionalNumber(row.rotated_at),
    revokedAt: optionalNumber(row.revoked_at),
    createdAt: Number(row.created_at),
  };
}

function refreshRow(token: RefreshTokenRecord): RefreshTokenRow {
  return {
    token_hash: token.tokenHash,
    grant_id: token.grantId,
    client_id: token.clientId,
    sub: token.sub,
    scopes: token.scopes.join(' '),
    expires_at: token.expiresAt,
    rotated_at: token.rotatedAt,
    revoked_at: token.revokedAt,
    created_at: token.createdAt,
  };
}

/** Nine columns a row: far below SQLite's bound-parameter limit. */
const REFRESH_ROWS_PER_INSERT = 500;

const grantColumns = ['grant_id', 'client_id', 'sub', 'scopes', 'auth_time', 'amr', 'session_id', 'revoked_at', 'expires_at', 'created_at'] as const;
type PrefixedGrantRow = { [K in keyof GrantRow as `g_${K}`]: GrantRow[K] | null };

function unprefixed(row: PrefixedGrantRow): GrantRow {
  return Object.fromEntries(grantColumns.map((column) => [column, row[`g_${column}`]])) as unknown as GrantRow;
}

/** Revokes the grants whose `column` is one of `values`, refresh tokens first: two statements per list (oneOfLists). */
async function revokeGrantsWhereOneOf(tx: Knex, column: 'grant_id' | 'sub' | 'client_id', values: string[], now: number) {
  for (const list of oneOfLists(tx, values)) {
    const ids = whereOneOf(tx, 'grants', column, list).select('grant_id');
    await tx('refresh_tokens').whereIn('grant_id', ids).whereNull('revoked_at').update({ revoked_at: now });
    await whereOneOf(tx, 'grants', column, list).whereNull('revoked_at').update({ revoked_at: now });
  }
}

export const knexTokenRepository = onKnex<TokenRepository>({
  async insertGrant(tx, grant) {
    const inserted = await tx('grants').insert({
      grant_id: grant.grantId,
      client_id: grant.clientId,
      sub: grant.sub,
      scopes: grant.scopes.join(' '),
      auth_time: grant.authTime,
      amr: JSON.stringify(grant.amr),
      session_id: grant.sessionId,
      revoked_at: grant.revokedAt,
      expires_at: grant.expiresAt,
      created_at: grant.createdAt,
    })
      .onConflict('grant_id')
      .ignore()
      .returning('grant_id');
    return (inserted as unknown[]).length === 1;
  },

  async findGrant(tx, grantId) {
    const row = (await tx<GrantRow>('grants').where({ grant_id: grantId }).first()) as GrantRow | undefined;
    return row ? grantFromRow(row) : null;
  },

  async extendGrant(tx, grantId, expiresAt) {
    await tx('grants').where({ grant_id: grantId }).where('expires_at', '<', expiresAt).update({ expires_at: expiresAt });
  },

  revokeGrant: (tx, grantId, now) => revokeGrantsWhereOneOf(tx, 'grant_id', [grantId], now),
  revokeGrantsOfUsers: (tx, subs, now) => revokeGrantsWhereOneOf(tx, 'sub', subs, now),
  revokeGrantsOfClients: (tx, clientIds, now) => revokeGrantsWhereOneOf(tx, 'client_id', clientIds, now),

  async revokeGrantsOfUserForClient(tx, sub, clientId, now) {
    const ids = tx('grants').where({ sub, client_id: clientId }).select('grant_id');
    await tx('refresh_tokens').whereIn('grant_id', ids).whereNull('revoked_at').update({ revoked_at: now });
    await tx('grants').where({ sub, client_id: clientId }).whereNull('revoked_at').update({ revoked_at: now });
  },

  async revokeGrantsOfUserOutsideSession(tx, sub, keepSessionId, now) {
    const others = () =>
      tx('grants')
        .where({ sub })
        .whereNull('revoked_at')
        .where((q) => q.whereNull('session_id').orWhereNot({ session_id: keepSessionId }));
    await tx('refresh_tokens').whereIn('grant_id', others().select('grant_id')).whereNull('revoked_at').update({ revoked_at: now });
    await others().update({ revoked_at: now });
  },

  async insertRefreshToken(tx, token) {
    await tx('refresh_tokens').insert(refreshRow(token));
  },

  async findRefreshToken(tx, tokenHash) {
    const row = (await tx<RefreshTokenRow>('refresh_tokens').where({ token_hash: tokenHash }).first()) as RefreshTokenRow | undefined;
    return row ? refreshFromRow(row) : null;
  },

  async findRefreshTokensWithGrants(tx, tokenHashes) {
    const found = new Map<string, { token: RefreshTokenRecord; grant: GrantRecord | null }>();
    for (const list of oneOfLists(tx, tokenHashes)) {
      const rows = (await whereOneOf(tx, 'refresh_tokens', 'refresh_tokens.token_hash', list)
        .leftJoin('grants', 'grants.grant_id', 'refresh_tokens.grant_id')
        .select('refresh_tokens.*', ...grantColumns.map((column) => `grants.${column} as g_${column}`))) as (RefreshTokenRow & PrefixedGrantRow)[];
      for (const row of rows) {
        const grant = row.g_grant_id === null ? null : grantFromRow(unprefixed(row));
        found.set(row.token_hash, { token: refreshFromRow(row), grant });
      }
    }
    return found;
  },

  async commitRotations(tx, rotations, now) {
    const hashes = [...new Set(rotations.map((r) => r.tokenHash))];
    const claimed = new Set<string>();
    for (const list of oneOfLists(tx, hashes)) {
      const rows = (await whereOneOf(tx, 'refresh_tokens', 'token_hash', list)
        .whereNull('rotated_at')
        .whereNull('revoked_at')
        .update({ rotated_at: now })
        .returning('token_hash')) as { token_hash: string }[];
      for (const row of rows) claimed.add(row.token_hash);
    }
    // A hash presented twice in one batch is claimed for its first rotation only.
    const won = rotations.filter((r) => claimed.delete(r.tokenHash));
    const successors = won.flatMap((r) => (r.successor ? [refreshRow(r.successor)] : []));
    for (const batch of inBatches(successors, REFRESH_ROWS_PER_INSERT)) await tx('refresh_tokens').insert(batch);
    const grantsByExpiry = new Map<number, string[]>();
    for (const r of won) grantsByExpiry.set(r.grantExpiresAt, [...(grantsByExpiry.get(r.grantExpiresAt) ?? []), r.grantId]);
    for (const [expiresAt, grantIds] of grantsByExpiry) {
      for (const list of oneOfLists(tx, [...new Set(grantIds)])) {
        await whereOneOf(tx, 'grants', 'grant_id', list).where('expires_at', '<', expiresAt).update({ expires_at: expiresAt });
      }
    }
    return new Set(won.map((r) => r.tokenHash));
  },

  async revokeAccessToken(tx, jti, expiresAt) {
    await tx('revoked_access_tokens').insert({ jti, expires_at: expiresAt }).onConflict('jti').ignore();
  },

  async isAccessTokenLive(tx, jti, grant) {
    const revoked = tx('revoked_access_tokens').where({ jti }).select(tx.raw('1'));
    const grantLive =
      grant === null ? null : tx('grants').where({ grant_id: grant.grantId, sub: grant.sub, client_id: grant.clientId }).whereNull('revoked_at').select(tx.raw('1'));
    const sql = grantLive === null ? 'CASE WHEN EXISTS ? THEN 0 ELSE 1 END AS live' : 'CASE WHEN EXISTS ? OR NOT EXISTS ? THEN 0 ELSE 1 END AS live';
    const row = (await tx.first(tx.raw(sql, grantLive === null ? [revoked] : [revoked, grantLive]))) as { live: number | string } | undefined;
    return Number(row?.live) === 1;
  },
});
