import type { UpstreamStateRepository } from '../repositories.js';
import type { UpstreamStateRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';
import { defineTable, nullable, text, timestamp, type Row } from './define-table.js';

const states = defineTable<UpstreamStateRecord>('upstream_states', {
  stateHash: ['state_hash', text()],
  providerId: ['provider_id', text()],
  bindingHash: ['binding_hash', text()],
  intent: ['intent', text()],
  returnTo: ['return_to', text()],
  linkSub: ['link_sub', nullable(text())],
  createdAt: ['created_at', timestamp],
  expiresAt: ['expires_at', timestamp],
  consumedAt: ['consumed_at', nullable(timestamp)],
});

export const knexUpstreamStateRepository = onKnex<UpstreamStateRepository>({
  async insert(tx, state) {
    await tx('upstream_states').insert(states.toRow(state));
  },

  async consume(tx, { stateHash, bindingHash }, now) {
    // The conditional update is the single-use guarantee (as for authorization codes); the binding in it
    // keeps whoever holds a callback URL without its browser from spending the state.
    const key = { state_hash: stateHash, binding_hash: bindingHash };
    const changed = await tx('upstream_states').where(key).whereNull('consumed_at').update({ consumed_at: now });
    const row = (await tx('upstream_states').where(key).first()) as Row | undefined;
    if (!row) return null;
    return { record: states.fromRow(row), alreadyConsumed: changed === 0 };
  },
});
