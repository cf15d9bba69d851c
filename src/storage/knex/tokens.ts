import type { Knex } from 'knex';
import type { GrantPair, RefreshClaim, TokenRepository } from '../repositories.js';
import type { GrantRecord, RefreshTokenRecord, RequestedClaims } from '../../model/index.js';
import { andOneOf, oneOfLists, whereOneOf } from './one-of.js';
import { onKnex } from './on-knex.js';
import { defineTable, json, list, nullable, text, timestamp, type Row } from './define-table.js';

const grants = defineTable<GrantRecord>('grants', {
  grantId: ['grant_id', text()],
  clientId: ['client_id', text()],
  sub: ['sub', text()],
  scopes: ['scopes', list()],
  authTime: ['auth_time', timestamp],
  amr: ['amr', list()],
  sessionId: ['session_id', nullable(text())],
  sid: ['sid', nullable(text())],
  claims: ['claims', nullable(json<RequestedClaims>())],
  revokedAt: ['revoked_at', nullable(timestamp)],
  expiresAt: ['expires_at', timestamp],
  createdAt: ['created_at', timestamp],
});

const refreshTokens = defineTable<RefreshTokenRecord>('refresh_tokens', {
  tokenHash: ['token_hash', text()],
  grantId: ['grant_id', text()],
  clientId: ['client_id', text()],
  sub: ['sub', text()],
  scopes: ['scopes', list()],
  expiresAt: ['expires_at', timestamp],
  rotatedAt: ['rotated_at', nullable(timestamp)],
  revokedAt: ['revoked_at', nullable(timestamp)],
  createdAt: ['created_at', timestamp],
});

/** The grant's own columns, read with a `g_` prefix beside a token (grant_id, client_id and sub are the token's too). */
const claimedGrantColumns = grants.columns.filter((column) => !['grant_id', 'client_id', 'sub'].includes(column));

/**
 * The claimed token, its grant and the cache generation in the claiming statement itself: SQLite's
 * RETURNING may not name another table, but scalar subqueries over the
 * grant's primary key are allowed on both engines.
 */
function claimReturning(tx: Knex) {
  return [
    ...refreshTokens.columns,
    ...claimedGrantColumns.map((column) =>
      tx.raw(`(SELECT ?? FROM grants WHERE grants.grant_id = refresh_tokens.grant_id) AS ??`, [column, `g_${column}`]),
    ),
    tx.raw('(SELECT generation FROM cache_generation WHERE id = 1) AS cache_generation'),
  ] as unknown as string[];
}

/** Revokes the grants whose `column` is one of `values`, refresh tokens first: two statements per list (oneOfLists). */
async function revokeGrantsWhereOneOf(
  tx: Knex,
  column: 'grant_id' | 'sub' | 'client_id',
  values: string[],
  now: number,
) {
  for (const list of oneOfLists(tx, values)) {
    const ids = whereOneOf(tx, 'grants', column, list).select('grant_id');
    await tx('refresh_tokens').whereIn('grant_id', ids).whereNull('revoked_at').update({ revoked_at: now });
    await whereOneOf(tx, 'grants', column, list).whereNull('revoked_at').update({ revoked_at: now });
  }
}

const pairKey = (pair: GrantPair) => `${pair.sub}\n${pair.clientId}`;

export const knexTokenRepository = onKnex<TokenRepository>({
  async insertGrant(tx, grant) {
    const inserted = await tx('grants')
      .insert(grants.toRow(grant))
      .onConflict('grant_id')
      .ignore()
      .returning('grant_id');
    return (inserted as unknown[]).length === 1;
  },

  async findGrant(tx, grantId) {
    const row = (await tx('grants').where({ grant_id: grantId }).first()) as Row | undefined;
    return row ? grants.fromRow(row) : null;
  },

  async extendGrant(tx, grantId, expiresAt) {
    await tx('grants')
      .where({ grant_id: grantId })
      .where('expires_at', '<', expiresAt)
      .update({ expires_at: expiresAt });
  },

  revokeGrant: (tx, grantId, now) => revokeGrantsWhereOneOf(tx, 'grant_id', [grantId], now),
  revokeGrantsOfUsers: (tx, subs, now) => revokeGrantsWhereOneOf(tx, 'sub', subs, now),
  revokeGrantsOfClients: (tx, clientIds, now) => revokeGrantsWhereOneOf(tx, 'client_id', clientIds, now),

  async revokeGrantsOfClientUsers(tx, clientId, subs, now) {
    for (const list of oneOfLists(tx, subs)) {
      const ofThem = () => whereOneOf(tx, 'grants', 'sub', list).where({ client_id: clientId });
      await tx('refresh_tokens')
        .whereIn('grant_id', ofThem().select('grant_id'))
        .whereNull('revoked_at')
        .update({ revoked_at: now });
      await ofThem().whereNull('revoked_at').update({ revoked_at: now });
    }
  },

  async countActiveGrants(tx, pairs, now) {
    // Every sub against every client of the request in one statement (per list), then only the pairs asked for.
    const wanted = new Set(pairs.map(pairKey));
    const counted: (GrantPair & { count: number })[] = [];
    const clientLists = oneOfLists(tx, [...new Set(pairs.map((p) => p.clientId))]);
    for (const subs of oneOfLists(tx, [...new Set(pairs.map((p) => p.sub))]))
      for (const clients of clientLists) {
        const rows = (await andOneOf(tx, whereOneOf(tx, 'grants', 'sub', subs), 'client_id', clients)
          .whereNull('revoked_at')
          .where('expires_at', '>', now)
          .groupBy('sub', 'client_id')
          .select('sub', 'client_id')
          .count({ n: '*' })) as { sub: string; client_id: string; n: number | string }[];
        for (const row of rows) {
          const pair = { sub: row.sub, clientId: row.client_id };
          if (wanted.has(pairKey(pair))) counted.push({ ...pair, count: Number(row.n) });
        }
      }
    return counted;
  },

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
    await tx('refresh_tokens')
      .whereIn('grant_id', others().select('grant_id'))
      .whereNull('revoked_at')
      .update({ revoked_at: now });
    await others().update({ revoked_at: now });
  },

  async revokeGrantsOfSessions(tx, sessionIds, now) {
    for (const list of oneOfLists(tx, sessionIds)) {
      // Scopes are a JSON array of strings (migration 0019): the quoted name matches the whole scope only.
      const online = () =>
        whereOneOf(tx, 'grants', 'session_id', list)
          .whereNull('revoked_at')
          .whereNot('scopes', 'like', '%"offline_access"%');
      await tx('refresh_tokens')
        .whereIn('grant_id', online().select('grant_id'))
        .whereNull('revoked_at')
        .update({ revoked_at: now });
      await online().update({ revoked_at: now });
    }
  },

  async findBackchannelLogoutClients(tx, sessionIds) {
    const found: { sessionId: string; clientId: string }[] = [];
    for (const list of oneOfLists(tx, sessionIds)) {
      const rows = (await andOneOf(
        tx,
        tx('grants').join('clients', 'clients.client_id', 'grants.client_id'),
        'grants.session_id',
        list,
      )
        .whereNotNull('clients.backchannel_logout_uri')
        .distinct('grants.session_id', 'grants.client_id')) as { session_id: string; client_id: string }[];
      for (const row of rows) found.push({ sessionId: row.session_id, clientId: row.client_id });
    }
    return found;
  },

  async insertRefreshToken(tx, token) {
    await tx('refresh_tokens').insert(refreshTokens.toRow(token));
  },

  async findRefreshToken(tx, tokenHash) {
    const row = (await tx('refresh_tokens').where({ token_hash: tokenHash }).first()) as Row | undefined;
    return row ? refreshTokens.fromRow(row) : null;
  },

  async findRefreshTokensWithGrants(tx, tokenHashes) {
    const found = new Map<string, { token: RefreshTokenRecord; grant: GrantRecord | null }>();
    for (const list of oneOfLists(tx, tokenHashes)) {
      const rows = (await whereOneOf(tx, 'refresh_tokens', 'refresh_tokens.token_hash', list)
        .leftJoin('grants', 'grants.grant_id', 'refresh_tokens.grant_id')
        .select('refresh_tokens.*', ...grants.columns.map((column) => `grants.${column} as g_${column}`))) as Row[];
      for (const row of rows) {
        const grant = row.g_grant_id === null ? null : grants.fromPrefixedRow(row, 'g_');
        found.set(row.token_hash as string, { token: refreshTokens.fromRow(row), grant });
      }
    }
    return found;
  },

  async claimRefreshTokens(tx, claims, { now, successorExpiresAt }) {
    const byClient = new Map<string, RefreshClaim[]>();
    for (const c of claims) byClient.set(c.clientId, [...(byClient.get(c.clientId) ?? []), c]);
    const statements = [...byClient].flatMap(([clientId, ofClient]) => {
      // CASE takes the first WHEN of a hash listed twice: the first claim's successor.
      const successor = (db: Knex) =>
        db.raw(
          `CASE token_hash ${ofClient.map(() => 'WHEN ? THEN ?').join(' ')} END`,
          ofClient.flatMap((c) => [c.tokenHash, c.successorHash]),
        );
      return oneOfLists(tx, [...new Set(ofClient.map((c) => c.tokenHash))]).map(
        (list) => async (db: Knex) =>
          (await whereOneOf(db, 'refresh_tokens', 'token_hash', list)
            .where({ client_id: clientId })
            .whereNull('rotated_at')
            .whereNull('revoked_at')
            .where('expires_at', '>', now)
            .update({ rotated_at: now, successor_hash: successor(db), successor_expires_at: successorExpiresAt })
            .returning(claimReturning(db))) as Row[],
      );
    });
    // One statement is atomic by itself; several (clients mixed in one group) share a transaction, so a group fails or succeeds whole.
    const run = async (db: Knex) => {
      const rows: Row[] = [];
      for (const statement of statements) rows.push(...(await statement(db)));
      return rows;
    };
    const rows = statements.length > 1 ? await tx.transaction(run) : await run(tx);
    const claimed = new Map<string, { token: RefreshTokenRecord; grant: GrantRecord }>();
    for (const row of rows) {
      const grant = grants.fromPrefixedRow(
        { ...row, g_grant_id: row.grant_id, g_client_id: row.client_id, g_sub: row.sub },
        'g_',
      );
      claimed.set(row.token_hash as string, { token: refreshTokens.fromRow(row), grant });
    }
    return { claimed, generation: rows.length === 0 ? null : Number(rows[0].cache_generation) };
  },

  async revokeAccessToken(tx, jti, expiresAt) {
    await tx('revoked_access_tokens').insert({ jti, expires_at: expiresAt }).onConflict('jti').ignore();
  },

  async isAccessTokenLive(tx, jti, grant) {
    const revoked = tx('revoked_access_tokens').where({ jti }).select(tx.raw('1'));
    const grantLive =
      grant === null
        ? null
        : tx('grants')
            .where({ grant_id: grant.grantId, sub: grant.sub, client_id: grant.clientId })
            .whereNull('revoked_at')
            .select(tx.raw('1'));
    const sql =
      grantLive === null
        ? 'CASE WHEN EXISTS ? THEN 0 ELSE 1 END AS live'
        : 'CASE WHEN EXISTS ? OR NOT EXISTS ? THEN 0 ELSE 1 END AS live';
    const row = (await tx.first(tx.raw(sql, grantLive === null ? [revoked] : [revoked, grantLive]))) as
      { live: number | string } | undefined;
    return Number(row?.live) === 1;
  },
});
