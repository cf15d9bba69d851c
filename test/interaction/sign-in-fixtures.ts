import { noFactors, type UserFactorReader } from '../../src/accounts/login-second-factors.js';
import type { SignInDeps } from '../../src/interaction/sign-in-deps.js';
import type {
  NewIdentity,
  PendingAuthorization,
  Prompt,
  SessionIdentity,
} from '../../src/interaction/sign-in-state.js';
import type { StepResult } from '../../src/interaction/step-result.js';
import type { UserRecord } from '../../src/model/index.js';

/** Shared by the step tables: a fixed clock, a request, the two kinds of identity. */
export const now = 1_000_000_000_000;

export function pending(
  overrides: Omit<Partial<PendingAuthorization>, 'prompt'> & { prompt?: Prompt[] } = {},
): PendingAuthorization {
  const { prompt = [], ...rest } = overrides;
  return {
    params: { client_id: 'web' },
    client: { clientId: 'web', name: 'Web', skipConsent: false, access: null },
    scopes: ['openid', 'email'],
    claimScopes: [],
    requiredAcr: null,
    maxAge: null,
    authAfter: null,
    consentDenied: false,
    termsDeclined: false,
    accessDenied: false,
    device: null,
    ...rest,
    prompt: new Set(prompt),
  };
}

export function userRecord(user: Partial<UserRecord> = {}): UserRecord {
  return {
    sub: 'alice',
    managedBy: 'database',
    email: 'alice@example.com',
    role: 'user',
    emailVerified: true,
    emailVerificationRequired: false,
    passwordHash: 'hash',
    secondFactorRequired: false,
    name: null,
    givenName: null,
    familyName: null,
    locale: null,
    deletedAt: null,
    createdAt: 0,
    updatedAt: 0,
    ...user,
  };
}

/** A session signed in a minute ago, with a password. */
export function session(overrides: Partial<SessionIdentity> = {}): SessionIdentity {
  return {
    kind: 'session',
    sub: 'alice',
    authTime: now - 60_000,
    amr: ['pwd'],
    sessionId: 'sid-hash',
    user: userRecord(),
    ...overrides,
  };
}

export function newIdentity(user: Partial<UserRecord> = {}, amr: string[] = ['pwd']): NewIdentity {
  const record = userRecord(user);
  return { kind: 'new', sub: record.sub, authTime: now, user: record, amr };
}

/** Nobody has a second factor. */
export const noRegisteredFactors: UserFactorReader = {
  summarize: async (subs) => new Map(subs.map((sub) => [sub, noFactors])),
};

export function signInDeps(overrides: Partial<SignInDeps> = {}): SignInDeps {
  return {
    clock: { now: () => now },
    secondFactorPolicy: 'optional',
    passkeysEnabled: true,
    factors: noRegisteredFactors,
    grantedScopes: async () => [],
    groupsOf: async () => [],
    recordAccessDenied: async () => {},
    terms: { outstanding: async () => ({ required: [], optional: [], implicit: [] }), accept: async () => [] },
    ...overrides,
  };
}

/**
 * A step's answer in one line: `continue`, `refused: <error>`,
 * `second factor: <factors>`, `enrolment`, or `<page> ← <return_to>` with the page's
 * other query parameters after it.
 */
export function summary(result: StepResult): string {
  switch (result.kind) {
    case 'continue':
      return 'continue';
    case 'refused':
      return `refused: ${result.error}`;
    case 'second_factor':
      return `second factor: ${result.factors.join(', ')}`;
    case 'second_factor_enrolment':
      return 'enrolment';
    case 'email_not_verified':
      return 'e-mail not verified';
    case 'page': {
      const url = new URL(result.location, 'http://idp.invalid');
      const returnTo = url.searchParams.get('return_to');
      url.searchParams.delete('return_to');
      return `${url.pathname} ← ${returnTo}${url.search ? ` ${url.search}` : ''}`;
    }
  }
}
