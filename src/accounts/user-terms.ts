import type { Clock } from '../clock.js';
import type { EventLog } from '../events/index.js';
import type { TermAcceptanceRecord, TermRecord } from '../model/index.js';
import type { Storage, Tx } from '../storage/repositories.js';
import { termsNotFound, termsVersionMismatch } from './account-errors.js';

export interface TermStanding {
  term: TermRecord;
  /** The version the user accepted most recently, and when; null without a session or an acceptance. */
  acceptedVersion: string | null;
  acceptedAt: number | null;
}

/** What a user has not accepted at the current version, by how the sign-in treats it (docs/oidc.md, "Interaction: the sign-in steps"). */
export interface OutstandingTerms {
  /** Required explicit terms: the sign-in stops on /terms until they are accepted. */
  required: TermRecord[];
  /** Optional explicit terms: offered on /terms when it is shown, never forced. */
  optional: TermRecord[];
  /** Implicit terms: accepted by going on, with a notice. */
  implicit: TermRecord[];
}

export interface TermVersionStatus {
  id: string;
  version: string;
  required: boolean;
  /** Live users who accepted the current version. */
  accepted: number;
  /** Live users who have still to accept it. */
  pending: number;
}

/**
 * The terms of service a user accepts (issue #14): the current terms with
 * the user's standing, acceptance of the current versions (a history that
 * is never overwritten, in term_acceptances, with a terms.accepted event in
 * the same transaction), and the counts operators read. The terms are
 * read from the database, where `idp apply` (or a reload on any instance)
 * wrote them, so every instance asks for the same versions at once.
 */
export interface UserTerms {
  list(sub: string | null): Promise<TermStanding[]>;
  outstanding(sub: string): Promise<OutstandingTerms>;
  /** Accepts the listed versions: 404 TERMS_NOT_FOUND for an unknown id, 409 TERMS_VERSION_MISMATCH for a version that is not current; nothing is recorded then. */
  accept(
    sub: string,
    items: { id: string; version: string }[],
    context: { clientAddress: string | null },
  ): Promise<TermStanding[]>;
  status(): Promise<TermVersionStatus[]>;
}

export function createUserTerms(deps: {
  storage: Pick<Storage, 'db' | 'transaction' | 'repositories'>;
  events: EventLog;
  clock: Clock;
}): UserTerms {
  const { storage, events, clock } = deps;
  const acceptances = storage.repositories.termAcceptances;
  const currentTerms = (tx: Tx) => storage.repositories.terms.listAll(tx);

  const standings = (terms: TermRecord[], history: TermAcceptanceRecord[]): TermStanding[] =>
    terms.map((term) => {
      const latest = history.filter((a) => a.termId === term.id).at(-1) ?? null;
      return { term, acceptedVersion: latest?.version ?? null, acceptedAt: latest?.acceptedAt ?? null };
    });

  const acceptedCurrent = async (tx: Tx, sub: string) =>
    new Set((await acceptances.listBySub(tx, sub)).map((a) => `${a.termId}\u0000${a.version}`));

  return {
    async list(sub) {
      const [terms, history] = await Promise.all([
        currentTerms(storage.db),
        sub === null ? [] : acceptances.listBySub(storage.db, sub),
      ]);
      return standings(terms, history);
    },

    async outstanding(sub) {
      const [terms, accepted] = await Promise.all([currentTerms(storage.db), acceptedCurrent(storage.db, sub)]);
      const open = terms.filter((term) => !accepted.has(`${term.id}\u0000${term.version}`));
      return {
        required: open.filter((term) => term.consentMode === 'explicit' && term.required),
        optional: open.filter((term) => term.consentMode === 'explicit' && !term.required),
        implicit: open.filter((term) => term.consentMode === 'implicit'),
      };
    },

    async accept(sub, items, context) {
      const terms = await currentTerms(storage.db);
      const chosen = items.map(({ id, version }) => {
        const term = terms.find((candidate) => candidate.id === id);
        if (!term) throw termsNotFound(id);
        if (term.version !== version) throw termsVersionMismatch(id, term.version);
        return term;
      });
      const history = await storage.transaction(async (tx) => {
        const already = await acceptedCurrent(tx, sub);
        const fresh = [...new Map(chosen.map((term) => [term.id, term])).values()].filter(
          (term) => !already.has(`${term.id}\u0000${term.version}`),
        );
        const now = clock.now();
        await acceptances.record(
          tx,
          fresh.map((term) => ({ sub, termId: term.id, version: term.version, acceptedAt: now })),
        );
        if (fresh.length > 0) {
          await events.record(tx, {
            type: 'terms.accepted',
            actor: sub,
            subject: sub,
            clientAddress: context.clientAddress,
            detail: { terms: fresh.map((term) => `${term.id}@${term.version}`) },
          });
        }
        return acceptances.listBySub(tx, sub);
      });
      return standings(terms, history);
    },

    async status() {
      const terms = await currentTerms(storage.db);
      const { accepted, liveUsers } = await acceptances.countLive(
        storage.db,
        terms.map((term) => ({ termId: term.id, version: term.version })),
      );
      return terms.map((term, i) => ({
        id: term.id,
        version: term.version,
        required: term.required,
        accepted: accepted[i],
        pending: liveUsers - accepted[i],
      }));
    },
  };
}
