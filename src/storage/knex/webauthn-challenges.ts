import type { WebAuthnChallengeRepository } from '../repositories.js';
import type { WebAuthnChallengeRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { defineTable, nullable, text, timestamp, type Row } from './define-table.js';

const challenges = defineTable<WebAuthnChallengeRecord>('webauthn_challenges', {
  challenge: ['challenge', text()],
  purpose: ['purpose', text()],
  sub: ['sub', nullable(text())],
  sessionId: ['session_id', nullable(text())],
  expiresAt: ['expires_at', timestamp],
  createdAt: ['created_at', timestamp],
});

export const knexWebAuthnChallengeRepository = onKnex<WebAuthnChallengeRepository>({
  async insert(tx, record) {
    await tx('webauthn_challenges').insert(challenges.toRow(record));
  },
  async consume(tx, challenge) {
    const row = (await tx('webauthn_challenges').where({ challenge }).first()) as Row | undefined;
    if (!row) return null;
    // The delete is the single-use guarantee: of concurrent deletes of one row, one removes it; the others took nothing.
    if ((await tx('webauthn_challenges').where({ challenge }).delete()) !== 1) return null;
    return challenges.fromRow(row);
  },
});
