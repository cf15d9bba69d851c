import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { Repositories, Tx } from '../../../src/storage/repositories.js';
import { cleanTables, type Subject } from './subject.js';
import { grantRecord, refreshTokenRecord } from './records.js';

type Principal = 'user' | 'client';

/** What apply does (src/gitops/write-plan.ts): every revoker, the batch form when it has one, in one transaction. */
async function revoke(s: Subject, kind: Principal, ids: string[], single = false): Promise<void> {
  await s.storage.transaction(async (tx) => {
    for (const revoker of s.repositories.grantRevokers) {
      const batch = single ? undefined : kind === 'user' ? revoker.revokeUsers : revoker.revokeClients;
      if (batch) await batch.call(revoker, tx, ids);
      else for (const id of ids) await (kind === 'user' ? revoker.revokeUser(tx, id) : revoker.revokeClient(tx, id));
    }
  });
}

export function describeGrantRevokers(s: Subject): void {
  let repositories: Repositories;
  let db: Tx;
  beforeAll(() => {
    ({ db, repositories } = s);
  });

  // alice and bob each hold a session and a grant with a refresh token; bob's second grant is for another client.
  beforeEach(async () => {
    await cleanTables(s.database.db, ['sessions', 'refresh_tokens', 'grants']);
    const { sessions, tokens } = repositories;
    for (const [idHash, sub] of [
      ['sa', 'alice'],
      ['sb', 'bob'],
    ]) {
      await sessions.insert(db, {
        idHash,
        publicId: `p-${idHash}`,
        sub,
        createdAt: 1,
        lastSeenAt: 1,
        expiresAt: 99_000,
        authTime: 1,
        amr: ['pwd'],
        secondFactorPending: false,
        secondFactorRequired: false,
      });
    }
    for (const g of [
      grantRecord('ga'),
      grantRecord('gb', { sub: 'bob' }),
      grantRecord('gc', { sub: 'bob', clientId: 'other' }),
    ]) {
      await tokens.insertGrant(db, g);
      await tokens.insertRefreshToken(db, refreshTokenRecord(`r-${g.grantId}`, g));
    }
  });

  /** What each principal still holds: per grant, [access tokens live, refresh token unrevoked]; per session, whether it exists. */
  async function holdings() {
    const { sessions, tokens } = repositories;
    const grants: Record<string, [boolean, boolean]> = {};
    for (const id of ['ga', 'gb', 'gc']) {
      const refresh = await tokens.findRefreshToken(db, `r-${id}`);
      const grant = await tokens.findGrant(db, id);
      const live =
        grant !== null &&
        (await tokens.isAccessTokenLive(db, `jti-${id}`, { grantId: id, sub: grant.sub, clientId: grant.clientId }));
      grants[id] = [live, refresh?.revokedAt === null];
    }
    return {
      grants,
      sessions: {
        sa: (await sessions.findByIdHash(db, 'sa')) !== null,
        sb: (await sessions.findByIdHash(db, 'sb')) !== null,
      },
    };
  }
  const live: [boolean, boolean] = [true, true];
  const gone: [boolean, boolean] = [false, false];

  it('a removed user (single forms) keeps no session and no usable grant; others keep theirs', async () => {
    await revoke(s, 'user', ['alice'], true);
    expect(await holdings()).toEqual({ grants: { ga: gone, gb: live, gc: live }, sessions: { sa: false, sb: true } });
  });

  it('a removed client (single forms) keeps no usable grant; sessions belong to users and stay', async () => {
    await revoke(s, 'client', ['other'], true);
    expect(await holdings()).toEqual({ grants: { ga: live, gb: live, gc: gone }, sessions: { sa: true, sb: true } });
  });

  it('a user who loses one client loses the grants given to it, keeps the session and the grants of other clients', async () => {
    await s.storage.transaction(async (tx) => {
      for (const revoker of repositories.grantRevokers) await revoker.revokeUsersOfClient(tx, 'app', ['bob']);
    });
    expect(await holdings()).toEqual({ grants: { ga: live, gb: gone, gc: live }, sessions: { sa: true, sb: true } });
  });

  it('removing several users or clients as apply does (batch forms where present) revokes them all', async () => {
    await revoke(s, 'client', ['app']);
    expect((await holdings()).grants).toEqual({ ga: gone, gb: gone, gc: live });
    await revoke(s, 'user', ['alice', 'bob']);
    expect(await holdings()).toEqual({ grants: { ga: gone, gb: gone, gc: gone }, sessions: { sa: false, sb: false } });
  });
}
