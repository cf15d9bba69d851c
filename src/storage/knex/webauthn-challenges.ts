import type { WebAuthnChallengeRepository } from '../repositories.js';
import type { WebAuthnCeremony } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import type { DbInteger } from './db-integer.js';

interface ChallengeRow {
  challenge: string;
  purpose: WebAuthnCeremony;
  sub: string | null;
  session_id: string | null;
  expires_at: DbInteger;
  created_at: DbInteger;
}

export const knexWebAuthnChallengeRepository = onKnex<WebAuthnChallengeRepository>({
  async insert(tx, record) {
    const row: ChallengeRow = {
      challenge: record.challenge,
      purpose: record.purpose,
      sub: record.sub,
      session_id: record.sessionId,
      expires_at: record.expiresAt,
      created_at: record.createdAt,
    };
    await tx('webauthn_challenges').insert(row);
  },
  async consume(tx, challenge) {
    const row = (await tx('webauthn_challenges').where({ challenge }).first()) as ChallengeRow | undefined;
    if (!row) return null;
    // The delete is the single-use guarantee: of concurrent deletes of one row, one removes it; the others took nothing.
    if ((await tx('webauthn_challenges').where({ challenge }).delete()) !== 1) return null;
    return {
      challenge: row.challenge,
      purpose: row.purpose,
      sub: row.sub,
      sessionId: row.session_id,
      expiresAt: Number(row.expires_at),
      createdAt: Number(row.created_at),
    };
  },
});
