import type { Knex } from 'knex';
import type { Tx } from '../repositories.js';

/** A repository interface with its opaque `Tx` seen as what it is here: a knex handle or transaction. */
export type OnKnex<R> = {
  [K in keyof R]: R[K] extends (tx: Tx, ...args: infer A) => infer Result ? (tx: Knex, ...args: A) => Result : R[K];
};

/**
 * Declares a knex implementation of a repository interface. Every `Tx` this
 * module hands out (src/storage/knex/open-knex-storage.ts) is a knex handle
 * or transaction, so the implementation may use it as one.
 */
export function onKnex<R>(implementation: OnKnex<R>): R {
  return implementation as unknown as R;
}

/** The knex handle behind a unit of work created by this module. */
export function knexOf(tx: Tx): Knex {
  return tx as unknown as Knex;
}

/** The unit of work for a knex handle or transaction. */
export function txOf(knex: Knex): Tx {
  return knex as unknown as Tx;
}
