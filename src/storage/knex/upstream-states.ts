import type { UpstreamStateRepository } from '../repositories.js';
import type { UpstreamStateRecord } from '../../model/index.js';
import { onKnex } from './on-knex.js';

interface UpstreamStateRow {
  state_hash: string;
  provider_id: string;
  binding_hash: string;
  intent: string;
  return_to: string;
  link_sub: string | null;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

function fromRow(row: UpstreamStateRow): UpstreamStateRecord {
  return {
    stateHash: row.state_hash,
    providerId: row.provider_id,
    bindingHash: row.binding_hash,
    intent: row.intent === 'link' ? 'link' : 'login',
    returnTo: row.return_to,
    linkSub: row.link_sub,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    consumedAt: row.consumed_at === null ? null : Number(row.consumed_at),
  };
}

export const knexUpstreamStateRepository = onKnex<UpstreamStateRepository>({
  async insert(tx, state) {
    const row: UpstreamStateRow = {
      state_hash: state.stateHash,
      provider_id: state.providerId,
      binding_hash: state.bindingHash,
      intent: state.intent,
      return_to: state.returnTo,
      link_sub: state.linkSub,
      created_at: state.createdAt,
      expires_at: state.expiresAt,
      consumed_at: state.consumedAt,
    };
    await tx('upstream_states').insert(row);
  },

  async consume(tx, { stateHash, bindingHash }, now) {
    // The conditional update is the single-use guarantee (as for authorization codes); the binding in it
    // keeps whoever holds a callback URL without its browser from spending the state.
    const key = { state_hash: stateHash, binding_hash: bindingHash };
    const changed = await tx('upstream_states').where(key).whereNull('consumed_at').update({ consumed_at: now });
    const row = (await tx('upstream_states').where(key).first()) as UpstreamStateRow | undefined;
    if (!row) return null;
    return { record: fromRow(row), alreadyConsumed: changed === 0 };
  },
});
