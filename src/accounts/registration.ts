import { emailAlreadyExists } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { AuthConfig, EmailConfig, RegistrationConfig, TermConfig } from '../config/types.js';
import type { EventLog } from '../events/index.js';
import type { MailOutbox } from '../mail/index.js';
import type { TermAcceptanceRepository, Tx, UserRepository } from '../storage/repositories.js';
import type { TermAcceptanceRecord, UserRecord } from '../model/index.js';
import {
  emailDisabled,
  emailNotAllowed,
  upstreamEmailNotVerified,
  registrationDisabled,
  termsNotAccepted,
} from './account-errors.js';
import { isEmailAllowed } from './email-patterns.js';
import { insertNewUser, newDatabaseUser } from './new-user.js';
import { checkNewPassword } from './check-new-password.js';
import type { RequestRateLimit } from './request-rate-limit.js';

export interface RegistrationInput {
  email: string;
  password: string;
  /** Ids of the terms the person ticked. */
  acceptedTerms: string[];
  /** The request's locale: the verification mail is written in it. */
  locale: string;
  /** For the audit events. */
  clientAddress: string;
}

export interface Registered {
  user: UserRecord;
  /** active: signed in at once; verification_required: a verification mail is on its way, sign-in waits for it. */
  status: 'active' | 'verification_required';
}

/**
 * Self-registration (docs/http-api.md, "Self-service accounts"; docs/configuration.md, registration), as checks in
 * this order: registration.enabled (403 REGISTRATION_DISABLED) → the rate
 * limit per client address (429 TOO_MANY_REQUESTS) → a mail can
 * be sent when one is needed (503 EMAIL_DISABLED) → allowed_email_patterns
 * (403 EMAIL_NOT_ALLOWED) → auth.password_min_length (400
 * PASSWORD_TOO_SHORT) → the required explicit terms are accepted (400
 * TERMS_NOT_ACCEPTED) → the e-mail is free (409 EMAIL_ALREADY_EXISTS).
 * Then one transaction: the database-managed user, the term acceptances,
 * their audit events (registration, terms.accepted), and the verification
 * mail's job when email_verification_required.
 * Signing in (status active) is the caller's: src/interaction runs the
 * sign-in steps on the new account.
 */
export interface Registration {
  register(input: RegistrationInput): Promise<Registered>;
  /**
   * The account of a first sign-in through an upstream identity provider
   * (docs/configuration.md, registration: it gates first-time OAuth signup), created inside
   * the caller's transaction with its connection (src/federation). The same
   * gates as a password signup: registration.enabled (REGISTRATION_DISABLED),
   * allowed_email_patterns (EMAIL_NOT_ALLOWED); then only an address the
   * upstream asserts verified (else EMAIL_NOT_VERIFIED): an account made
   * from an unproved address would hold the upstream account's connection
   * while its address waits for someone else's mailbox (account
   * pre-hijacking, docs/http-api.md "Linking rules"). The unique index
   * decides a race (EMAIL_ALREADY_EXISTS). No password, and no term
   * acceptance: the terms step asks for them at the first authorization.
   */
  registerFromUpstream(tx: Tx, input: UpstreamRegistrationInput): Promise<UserRecord>;
}

export interface UpstreamRegistrationInput {
  email: string;
  /** The upstream asserts that the address is the account holder's. */
  emailVerified: boolean;
  providerId: string;
  clientAddress: string;
}

export function createRegistration(deps: {
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  users: UserRepository;
  termAcceptances: TermAcceptanceRepository;
  outbox: MailOutbox;
  events: EventLog;
  config: { registration: RegistrationConfig; email: EmailConfig; auth: AuthConfig; terms: TermConfig[] };
  hashPassword(plain: string): Promise<string>;
  /** Per client address only: a limit per e-mail would let anyone hold back someone else's signup. */
  rateLimit: RequestRateLimit;
  clock: Clock;
}): Registration {
  const { registration, email, auth, terms } = deps.config;
  return {
    async register(input) {
      if (!registration.enabled) throw registrationDisabled();
      await deps.rateLimit.count({ clientAddress: input.clientAddress });
      const mustVerify = registration.emailVerificationRequired;
      if (mustVerify && !email.enabled) throw emailDisabled();
      if (!isEmailAllowed(input.email, registration.allowedEmailPatterns)) throw emailNotAllowed();
      checkNewPassword(input.password, auth);
      const accepted = acceptedTerms(terms, input.acceptedTerms);
      // Early, so that a taken address costs no argon2 work; the unique index decides a race.
      if (await deps.users.findLiveByEmail(deps.db, input.email)) throw emailAlreadyExists();
      const passwordHash = await deps.hashPassword(input.password);
      const user = await deps.transaction(async (tx) => {
        const now = deps.clock.now();
        const created = newDatabaseUser(
          {
            email: input.email,
            role: 'user',
            emailVerified: false,
            emailVerificationRequired: mustVerify,
            passwordHash,
          },
          now,
        );
        await insertNewUser(deps.users, tx, created);
        await deps.termAcceptances.record(
          tx,
          accepted.map((term): TermAcceptanceRecord => ({
            sub: created.sub,
            termId: term.id,
            version: term.version,
            acceptedAt: now,
          })),
        );
        const who = { actor: created.sub, subject: created.sub, clientAddress: input.clientAddress };
        await deps.events.record(tx, {
          type: 'registration',
          ...who,
          detail: { email_verification_required: mustVerify },
        });
        if (accepted.length > 0)
          await deps.events.record(tx, {
            type: 'terms.accepted',
            ...who,
            detail: { terms: accepted.map((term) => `${term.id}@${term.version}`) },
          });
        if (mustVerify)
          await deps.outbox.queue(tx, { template: 'email_verification', email: created.email, locale: input.locale });
        return created;
      });
      return { user, status: mustVerify ? 'verification_required' : 'active' };
    },

    async registerFromUpstream(tx, input) {
      if (!registration.enabled) throw registrationDisabled();
      if (!isEmailAllowed(input.email, registration.allowedEmailPatterns)) throw emailNotAllowed();
      if (!input.emailVerified) throw upstreamEmailNotVerified();
      const now = deps.clock.now();
      const created = newDatabaseUser(
        { email: input.email, role: 'user', emailVerified: true, emailVerificationRequired: false, passwordHash: null },
        now,
      );
      await insertNewUser(deps.users, tx, created);
      const who = { actor: created.sub, subject: created.sub, clientAddress: input.clientAddress };
      await deps.events.record(tx, {
        type: 'registration',
        ...who,
        detail: { provider: input.providerId, email_verification_required: false },
      });
      return created;
    },
  };
}

/**
 * The terms a registration accepts: every explicit term the person ticked
 * (each required one must be), and every implicit term, which signing up
 * accepts (the page shows registration.signup_notice). Ids of unknown terms
 * are ignored. Recorded at the term's current version.
 */
function acceptedTerms(terms: TermConfig[], ticked: string[]): TermConfig[] {
  const missing = terms.filter((term) => term.required && term.consentMode === 'explicit' && !ticked.includes(term.id));
  if (missing.length > 0) throw termsNotAccepted(missing.map((term) => term.id));
  return terms.filter((term) => term.consentMode === 'implicit' || ticked.includes(term.id));
}
