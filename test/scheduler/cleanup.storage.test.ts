import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { knexAuthorizationCodeRepository as codes } from '../../src/storage/knex/authorization-codes.js';
import { knexBackgroundJobRepository as jobs } from '../../src/storage/knex/background-jobs.js';
import { knexSessionRepository as sessions } from '../../src/storage/knex/sessions.js';
import type { BackgroundJobRecord, BackgroundJobState } from '../../src/model/index.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { manualClock, schedulerConfig, testScheduler, type ManualClock } from './scheduler-fixture.js';

const day = 86_400_000;

describe.each(databaseKinds)('the cleanup job on %s', (kind) => {
  let t: TestDatabase;
  let clock: ManualClock;
  beforeEach(async () => {
    t = await createTestDatabase(kind);
    clock = manualClock(Date.UTC(2026, 5, 1));
  });
  afterEach(async () => {
    await t.destroy();
  });

  async function insertJob(id: string, state: BackgroundJobState, ageMs: number): Promise<void> {
    const at = clock.now() - ageMs;
    const terminal = state === 'succeeded' || state === 'failed';
    const job: BackgroundJobRecord = {
      id,
      kind: 'noop',
      payload: {},
      state,
      attempts: state === 'pending' ? 0 : 1,
      maxAttempts: 3,
      runAt: at,
      leaseOwner: state === 'running' ? 'someone' : null,
      leaseExpiresAt: state === 'running' ? clock.now() + 60_000 : null,
      lastError: state === 'failed' ? 'gave up' : null,
      createdAt: at,
      updatedAt: at,
      finishedAt: terminal ? at : null,
    };
    await jobs.insert(t.tx, job);
  }

  it('deletes terminal jobs older than background_retention_ms and never pending or running ones', async () => {
    await insertJob('old-succeeded', 'succeeded', 8 * day);
    await insertJob('old-failed', 'failed', 8 * day);
    await insertJob('old-pending', 'pending', 30 * day);
    await insertJob('old-running', 'running', 30 * day);
    await insertJob('recent-succeeded', 'succeeded', 6 * day);
    await insertJob('recent-failed', 'failed', 7 * day - 1);
    const scheduler = testScheduler(t.tx, { clock });
    const deleted = await scheduler.runNow('cleanup');
    expect(deleted.background_jobs).toBe(2);
    const left = (await jobs.list(t.tx, { limit: 100 })).map((j) => j.id).sort();
    expect(left).toEqual(['old-pending', 'old-running', 'recent-failed', 'recent-succeeded']);
  });

  it('deletes in batches of cleanup.batch_size until none is left', async () => {
    for (let i = 0; i < 7; i += 1) await insertJob(`done-${i}`, 'succeeded', 10 * day);
    await insertJob('waiting', 'pending', 10 * day);
    const config = {
      ...schedulerConfig({ backgroundRetentionMs: day }),
      cleanup: { enabled: true, batchSize: 2, eventsRetentionDays: 90 },
    };
    const deleted = await testScheduler(t.tx, { clock, config }).runNow('cleanup');
    expect(deleted.background_jobs).toBe(7);
    expect((await jobs.list(t.tx, { limit: 100 })).map((j) => j.id)).toEqual(['waiting']);
  });

  it('deletes expired authorization codes and keeps live ones, consumed or not', async () => {
    const now = clock.now();
    await t.db('users').insert({
      sub: 'u1',
      managed_by: 'database',
      email: 'u1@example.test',
      email_normalized: 'u1@example.test',
      role: 'user',
      created_at: now,
      updated_at: now,
    });
    await t.db('clients').insert({
      client_id: 'c1',
      name: 'C1',
      redirect_uris: '[]',
      post_logout_redirect_uris: '[]',
      grant_types: '[]',
      token_endpoint_auth_method: 'none',
      scopes: '[]',
      require_pkce: true,
      skip_consent: false,
      created_at: now,
      updated_at: now,
    });
    const code = (codeHash: string, expiresAt: number, consumedAt: number | null) =>
      codes.insert(t.tx, {
        codeHash,
        grantId: `g-${codeHash}`,
        clientId: 'c1',
        sub: 'u1',
        redirectUri: 'http://127.0.0.1/cb',
        scopes: ['openid'],
        nonce: null,
        codeChallenge: null,
        codeChallengeMethod: null,
        authTime: now,
        amr: ['pwd'],
        claims: null,
        sessionId: null,
        sid: null,
        expiresAt,
        consumedAt,
        createdAt: now - 120_000,
      });
    await code('expired', now - 1, null);
    await code('expired-consumed', now - 60_000, now - 100_000);
    await code('live', now + 30_000, null);
    await code('live-consumed', now + 30_000, now - 1000);
    const deleted = await testScheduler(t.tx, { clock }).runNow('cleanup');
    expect(deleted.authorization_codes).toBe(2);
    const left = (await t.db('authorization_codes').select('code_hash').orderBy('code_hash')).map(
      (r: { code_hash: string }) => r.code_hash,
    );
    expect(left).toEqual(['live', 'live-consumed']);
  });

  it('deletes expired and idle sessions and keeps live ones', async () => {
    const now = clock.now();
    const session = (idHash: string, lastSeenAt: number, expiresAt: number) =>
      sessions.insert(t.tx, {
        idHash,
        publicId: `p-${idHash}`,
        sub: 'u1',
        createdAt: now - 7_200_000,
        lastSeenAt,
        expiresAt,
        authTime: now - 7_200_000,
        amr: ['pwd'],
        secondFactorPending: false,
        secondFactorRequired: false,
      });
    await session('expired', now - 60_000, now - 1);
    await session('idle', now - 3_600_001, now + 80_000_000); // idle limit 3600 s in the test config
    await session('live', now - 60_000, now + 80_000_000);
    await session('live-at-idle-edge', now - 3_599_000, now + 80_000_000);
    const deleted = await testScheduler(t.tx, { clock }).runNow('cleanup');
    expect(deleted).toMatchObject({ sessions: 1, sessions_idle: 1 });
    const left = (await t.db('sessions').select('id_hash').orderBy('id_hash')).map(
      (r: { id_hash: string }) => r.id_hash,
    );
    expect(left).toEqual(['live', 'live-at-idle-edge']);
  });

  it('deletes login rate-limit counters whose window has ended', async () => {
    const now = clock.now();
    await t.db('login_rate_limits').insert([
      { key: 'account:old@example.test', failures: 5, window_started_at: now - 900_001 },
      { key: 'address:10.0.0.1', failures: 2, window_started_at: now - 899_000 },
    ]);
    const deleted = await testScheduler(t.tx, { clock }).runNow('cleanup');
    expect(deleted.login_rate_limits).toBe(1);
    expect((await t.db('login_rate_limits').select('key')).map((r: { key: string }) => r.key)).toEqual([
      'address:10.0.0.1',
    ]);
  });

  it('deletes expired refresh tokens, revoked access-token ids and grants, keeping live ones (rotated or not)', async () => {
    const now = clock.now();
    const grant = (grantId: string, expiresAt: number) =>
      t.db('grants').insert({
        grant_id: grantId,
        client_id: 'c1',
        sub: 'u1',
        scopes: '["openid"]',
        auth_time: now,
        session_id: null,
        revoked_at: null,
        expires_at: expiresAt,
        created_at: now - day,
      });
    const refresh = (tokenHash: string, grantId: string, expiresAt: number, rotatedAt: number | null) =>
      t.db('refresh_tokens').insert({
        token_hash: tokenHash,
        grant_id: grantId,
        client_id: 'c1',
        sub: 'u1',
        scopes: '["openid"]',
        expires_at: expiresAt,
        rotated_at: rotatedAt,
        revoked_at: null,
        created_at: now - day,
      });
    await grant('old-grant', now - 1);
    await grant('live-grant', now + day);
    await refresh('old-token', 'old-grant', now - 1, null);
    await refresh('expired-token', 'live-grant', now - 1000, now - 2000);
    await refresh('rotated-live-token', 'live-grant', now + day, now - 1000);
    await refresh('live-token', 'live-grant', now + day, null);
    await t.db('revoked_access_tokens').insert([
      { jti: 'expired-jti', expires_at: now - 1 },
      { jti: 'live-jti', expires_at: now + 60_000 },
    ]);
    const deleted = await testScheduler(t.tx, { clock }).runNow('cleanup');
    expect(deleted).toMatchObject({ refresh_tokens: 2, revoked_access_tokens: 1, grants: 1 });
    expect(
      (await t.db('refresh_tokens').select('token_hash').orderBy('token_hash')).map(
        (r: { token_hash: string }) => r.token_hash,
      ),
    ).toEqual(['live-token', 'rotated-live-token']);
    expect((await t.db('revoked_access_tokens').select('jti')).map((r: { jti: string }) => r.jti)).toEqual([
      'live-jti',
    ]);
    expect((await t.db('grants').select('grant_id')).map((r: { grant_id: string }) => r.grant_id)).toEqual([
      'live-grant',
    ]);
  });

  it('deletes audit events older than cleanup.events_retention_days', async () => {
    const now = clock.now();
    const event = (actor: string, time: number) => ({
      time,
      type: 'sign_out',
      actor,
      subject: null,
      client_address: null,
      client_id: null,
      detail: '{}',
    });
    await t
      .db('events')
      .insert([event('old', now - 90 * day - 1), event('edge', now - 90 * day), event('recent', now - day)]);
    const deleted = await testScheduler(t.tx, { clock }).runNow('cleanup');
    expect(deleted.events).toBe(1);
    expect((await t.db('events').select('actor').orderBy('actor')).map((r: { actor: string }) => r.actor)).toEqual([
      'edge',
      'recent',
    ]);
    const shorter = { ...schedulerConfig(), cleanup: { enabled: true, batchSize: 1000, eventsRetentionDays: 1 } };
    expect((await testScheduler(t.tx, { clock, config: shorter }).runNow('cleanup')).events).toBe(1);
  });

  it("deletes mailed links' tokens once they expired, used or not, and keeps live ones", async () => {
    const now = clock.now();
    await t.db('users').insert({
      sub: 'u1',
      managed_by: 'database',
      email: 'u1@example.test',
      email_normalized: 'u1@example.test',
      role: 'user',
      email_verified: false,
      email_verification_required: true,
      second_factor_required: false,
      created_at: now,
      updated_at: now,
    });
    const token = (tokenHash: string, expiresAt: number, usedAt: number | null) =>
      t.db('link_tokens').insert({
        token_hash: tokenHash,
        sub: 'u1',
        purpose: 'password_reset',
        email: 'u1@example.test',
        created_at: now - day,
        expires_at: expiresAt,
        used_at: usedAt,
      });
    await token('expired', now - 1, null);
    await token('expired-used', now - 1000, now - 2000);
    await token('live', now + 60_000, null);
    await token('live-used', now + 60_000, now - 1000);
    const deleted = await testScheduler(t.tx, { clock }).runNow('cleanup');
    expect(deleted.link_tokens).toBe(2);
    expect(
      (await t.db('link_tokens').select('token_hash').orderBy('token_hash')).map(
        (r: { token_hash: string }) => r.token_hash,
      ),
    ).toEqual(['live', 'live-used']);
  });

  it('deletes pushed authorization requests once they expired, claimed or not, and keeps live ones', async () => {
    const now = clock.now();
    await t.db('clients').insert({
      client_id: 'par-app',
      name: 'PAR app',
      redirect_uris: '[]',
      post_logout_redirect_uris: '[]',
      grant_types: '["authorization_code"]',
      token_endpoint_auth_method: 'none',
      scopes: '["openid"]',
      require_pkce: true,
      skip_consent: false,
      created_at: now,
      updated_at: now,
    });
    const pushed = (requestHash: string, expiresAt: number, usedAt: number | null) =>
      t.db('pushed_authorization_requests').insert({
        request_hash: requestHash,
        client_id: 'par-app',
        params: '{}',
        created_at: now - 60_000,
        expires_at: expiresAt,
        used_at: usedAt,
      });
    await pushed('expired', now - 1, null);
    await pushed('expired-used', now - 1000, now - 2000);
    await pushed('live', now + 60_000, null);
    await pushed('live-used', now + 60_000, now - 1000);
    const deleted = await testScheduler(t.tx, { clock }).runNow('cleanup');
    expect(deleted.pushed_authorization_requests).toBe(2);
    expect(
      (await t.db('pushed_authorization_requests').select('request_hash').orderBy('request_hash')).map(
        (r: { request_hash: string }) => r.request_hash,
      ),
    ).toEqual(['live', 'live-used']);
  });

  it('deletes WebAuthn challenges whose 5 minutes have passed, and keeps open ones', async () => {
    const now = clock.now();
    const challenge = (value: string, expiresAt: number) => ({
      challenge: value,
      purpose: 'authentication',
      sub: null,
      session_id: null,
      expires_at: expiresAt,
      created_at: expiresAt - 300_000,
    });
    await t.db('webauthn_challenges').insert([challenge('expired', now - 1), challenge('open', now + 60_000)]);
    const deleted = await testScheduler(t.tx, { clock }).runNow('cleanup');
    expect(deleted.webauthn_challenges).toBe(1);
    expect(
      (await t.db('webauthn_challenges').select('challenge')).map((r: { challenge: string }) => r.challenge),
    ).toEqual(['open']);
  });

  it('an unknown scheduled job name is refused', async () => {
    await expect(testScheduler(t.tx, { clock }).runNow('nope')).rejects.toThrow('unknown scheduled job "nope"');
  });
});
