import { ApiError } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { EventLog } from '../events/index.js';
import type { UserRecord } from '../model/index.js';
import type { ConnectionRepository, Tx, UserRepository } from '../storage/repositories.js';
import { FederationError } from './federation-error.js';
import type { UpstreamIdentity } from './upstream-identity.js';
import type { UpstreamProvider } from './upstream-provider.js';

/**
 * Creates the database-managed user of a first upstream sign-in, inside
 * the caller's transaction, when registration allows it (docs/configuration.md,
 * registration: it gates first-time OAuth signup) and the upstream asserts the
 * address verified, and records its `registration` event; refuses with
 * ApiError REGISTRATION_DISABLED, EMAIL_NOT_ALLOWED or EMAIL_NOT_VERIFIED
 * otherwise. src/accounts (Registration.registerFromUpstream) implements
 * it; ./wire-federation.ts wires it.
 */
export type CreateUpstreamUser = (
  tx: Tx,
  input: { email: string; emailVerified: boolean; providerId: string; clientAddress: string },
) => Promise<UserRecord>;

/** Where the request came from: for the audit events. */
export interface RequestContext {
  clientAddress: string;
}

export type LoginDecision = { kind: 'sign_in'; user: UserRecord } | { kind: 'link_required'; email: string };

/** A concurrent sign-in of the same upstream account won a race this attempt lost: the next attempt sees its result. */
class LostRace extends Error {}

/**
 * auto_link never reaches an admin or a config-managed account: one
 * upstream's word about an address must not open the accounts that can
 * change the server (admins) or that the operator declared in git; those
 * sign in first and link from there (LINK_REQUIRED).
 */
const autoLinkable = (user: UserRecord) => user.role !== 'admin' && user.managedBy === 'database';

const signupRefusals = new Set(['REGISTRATION_DISABLED', 'EMAIL_NOT_ALLOWED', 'EMAIL_NOT_VERIFIED']);

/**
 * Who an upstream identity is here (docs/oidc.md, "Interaction: the sign-in steps"):
 * 1. a connection of (provider, subject) signs its user in;
 * 2. else an existing account holding the upstream's address is linked at
 *    once only under auto_link, when the upstream asserts the address
 *    verified and the account's own address is verified too (otherwise
 *    whoever registered the address first, unverified, would receive the
 *    upstream account's sign-ins), and the account is an ordinary
 *    database-managed one (autoLinkable); in every other case the person
 *    must sign in to that account first (LINK_REQUIRED);
 * 3. else a new account, when registration allows it and the upstream
 *    asserts the address verified (no account from an unproved address:
 *    docs/http-api.md "Linking rules").
 * A new user and its connection are written in one transaction: never one
 * without the other.
 */
export function createAccountRules(deps: {
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  db: Tx;
  users: UserRepository;
  connections: ConnectionRepository;
  createUser: CreateUpstreamUser;
  events: EventLog;
  clock: Clock;
}) {
  const connectionOf = (provider: UpstreamProvider, identity: UpstreamIdentity, sub: string) => ({
    providerId: provider.id,
    subject: identity.subject,
    sub,
    email: identity.email,
    linkedAt: deps.clock.now(),
  });

  /** After an insert that changed nothing: the upstream account was linked meanwhile (a race), or the user has another one at this provider. */
  async function explainRefusedInsert(tx: Tx, provider: UpstreamProvider, identity: UpstreamIdentity): Promise<never> {
    if (await deps.connections.findByUpstream(tx, provider.id, identity.subject)) throw new LostRace();
    throw new FederationError(
      'ALREADY_CONNECTED',
      `The account is already connected to another ${provider.displayName} account.`,
    );
  }

  async function insertLinked(
    tx: Tx,
    provider: UpstreamProvider,
    identity: UpstreamIdentity,
    sub: string,
    context: RequestContext,
  ): Promise<boolean> {
    if (!(await deps.connections.insert(tx, connectionOf(provider, identity, sub)))) return false;
    await deps.events.record(tx, {
      type: 'provider.linked',
      actor: sub,
      subject: sub,
      clientAddress: context.clientAddress,
      detail: { provider: provider.id },
    });
    return true;
  }

  async function decide(
    tx: Tx,
    provider: UpstreamProvider,
    identity: UpstreamIdentity,
    context: RequestContext,
  ): Promise<LoginDecision> {
    const connection = await deps.connections.findByUpstream(tx, provider.id, identity.subject);
    if (connection) {
      const user = await deps.users.findBySub(tx, connection.sub);
      if (!user || user.deletedAt !== null)
        throw new FederationError('ACCOUNT_DELETED', 'The account this sign-in belongs to has been deleted.');
      return { kind: 'sign_in', user };
    }
    if (identity.email === null)
      throw new FederationError(
        'UPSTREAM_EMAIL_MISSING',
        `Your ${provider.displayName} account gives no e-mail address.`,
      );
    const existing = await deps.users.findLiveByEmail(tx, identity.email);
    if (existing) {
      const linkNow =
        provider.emailConflictStrategy === 'auto_link' &&
        identity.emailVerified &&
        existing.emailVerified &&
        autoLinkable(existing);
      if (!linkNow) return { kind: 'link_required', email: existing.email };
      if (!(await insertLinked(tx, provider, identity, existing.sub, context)))
        await explainRefusedInsert(tx, provider, identity);
      return { kind: 'sign_in', user: existing };
    }
    let user: UserRecord;
    try {
      user = await deps.createUser(tx, {
        email: identity.email,
        emailVerified: identity.emailVerified,
        providerId: provider.id,
        clientAddress: context.clientAddress,
      });
    } catch (error) {
      // The login page names the provider when the upstream did not vouch for the address: no mail was sent.
      if (error instanceof ApiError && signupRefusals.has(error.code))
        throw new FederationError(error.code as 'REGISTRATION_DISABLED', error.message, {
          namesProvider: error.code === 'EMAIL_NOT_VERIFIED',
        });
      throw error;
    }
    if (!(await insertLinked(tx, provider, identity, user.sub, context)))
      await explainRefusedInsert(tx, provider, identity);
    return { kind: 'sign_in', user };
  }

  return {
    /** intent=login. A lost race (the same upstream account, or the same new address, signing in twice at once) is decided again, once. */
    async login(
      provider: UpstreamProvider,
      identity: UpstreamIdentity,
      context: RequestContext,
    ): Promise<LoginDecision> {
      try {
        return await deps.transaction((tx) => decide(tx, provider, identity, context));
      } catch (error) {
        if (error instanceof FederationError) throw error;
        // The transaction rolled back (no half-made user); a unique index may have refused the loser's insert.
        return deps.transaction((tx) => decide(tx, provider, identity, context));
      }
    },

    /** intent=link, or a pending link completed: the upstream account joins `sub`'s account. */
    async link(
      provider: UpstreamProvider,
      identity: UpstreamIdentity,
      sub: string,
      context: RequestContext,
    ): Promise<void> {
      const linked = await deps.connections.findByUpstream(deps.db, provider.id, identity.subject);
      if (!linked && (await deps.transaction((tx) => insertLinked(tx, provider, identity, sub, context)))) return;
      const owner = linked ?? (await deps.connections.findByUpstream(deps.db, provider.id, identity.subject));
      if (owner?.sub === sub) return;
      if (owner)
        throw new FederationError(
          'CONNECTION_IN_USE',
          `This ${provider.displayName} account is already connected to another user.`,
        );
      throw new FederationError(
        'ALREADY_CONNECTED',
        `The account is already connected to another ${provider.displayName} account.`,
      );
    },
  };
}

export type AccountRules = ReturnType<typeof createAccountRules>;
