import { createHash, randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Clock } from '../clock.js';
import type { EventLog } from '../events/index.js';
import type { AuthConfig, BrandingConfig } from '../config/types.js';
import type { PasskeyRecord, UserRecord, WebAuthnCeremony, WebAuthnChallengeRecord } from '../model/index.js';
import type {
  PasskeyRepository,
  TotpRepository,
  Tx,
  UserRepository,
  WebAuthnChallengeRepository,
} from '../storage/repositories.js';
import { isSecondFactorRequired } from './login-second-factors.js';
import {
  invalidPasskey,
  passkeyAlreadyRegistered,
  passkeyNotFound,
  passkeysDisabled,
  secondFactorRequired,
} from './second-factor-errors.js';
import { challengeOf } from './webauthn-challenge.js';

/**
 * Passkeys (WebAuthn Level 3 through @simplewebauthn/server; docs/http-api.md, "Second factors"):
 * registration (options → the browser's attestation → a stored credential)
 * and authentication (options → the browser's assertion → the user it
 * proves). The relying party is server.base_url: its host is the RP ID and
 * its origin the only expected origin. Every ceremony's challenge is stored
 * (WebAuthnChallengeRepository), lives 5 minutes and is consumed by the
 * first response that names it, on whichever instance that arrives.
 * Credentials are discoverable (resident) and verify their user, so one
 * passkey alone signs a user in (passwordless), or completes a password
 * sign-in as its second factor.
 */
export const challengeTtlMs = 5 * 60_000;

/** A pending sign-in that asks for a passkey as its second factor. */
export interface PendingSignIn {
  sub: string;
  /** SessionRecord.idHash. */
  sessionId: string;
}

export interface PasskeyService {
  registrationOptions(user: UserRecord, sessionId: string): Promise<PublicKeyCredentialCreationOptionsJSON>;
  /** Verifies the attestation against the user's challenge and stores the passkey (400 INVALID_PASSKEY, 409 PASSKEY_ALREADY_REGISTERED). */
  register(
    user: UserRecord,
    sessionId: string,
    response: unknown,
    name: string,
    clientAddress: string,
  ): Promise<PasskeyRecord>;
  list(user: UserRecord): Promise<PasskeyRecord[]>;
  rename(user: UserRecord, id: string, name: string): Promise<PasskeyRecord>;
  /** 404 PASSKEY_NOT_FOUND (also for another user's), 409 SECOND_FACTOR_REQUIRED for the last factor of a user who must keep one. */
  remove(user: UserRecord, id: string, clientAddress: string): Promise<void>;
  /** Options for a discoverable credential; a pending sign-in's lists the user's passkeys. */
  authenticationOptions(pending: PendingSignIn | null): Promise<PublicKeyCredentialRequestOptionsJSON>;
  /**
   * The live user an assertion proves (401 INVALID_PASSKEY otherwise), and
   * whether its challenge belonged to the pending sign-in (a second factor)
   * rather than to nobody (passwordless). `askedHere` lists the challenges
   * the calling browser asked for: any other is refused before it is spent.
   */
  authenticate(
    response: unknown,
    pending: PendingSignIn | null,
    askedHere: readonly string[],
  ): Promise<{ user: UserRecord; completesPending: boolean }>;
}

export function createPasskeyService(deps: {
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  users: UserRepository;
  passkeys: PasskeyRepository;
  totp: TotpRepository;
  challenges: WebAuthnChallengeRepository;
  /** server.base_url: RP ID (its host) and expected origin. */
  baseUrl: string;
  /** branding.name is the relying party's name authenticators show; read at each use, like auth (a config reload changes them in place). */
  branding: Pick<BrandingConfig, 'name'>;
  auth: Pick<AuthConfig, 'secondFactor' | 'passkeysEnabled'>;
  events: EventLog;
  clock: Clock;
}): PasskeyService {
  const { db, passkeys, challenges, clock } = deps;
  const rpID = new URL(deps.baseUrl).hostname;
  const origin = new URL(deps.baseUrl).origin;

  const enabled = () => {
    if (!deps.auth.passkeysEnabled) throw passkeysDisabled();
  };

  const saveChallenge = (
    challenge: string,
    purpose: WebAuthnCeremony,
    sub: string | null,
    sessionId: string | null,
  ) => {
    const now = clock.now();
    return challenges.insert(db, {
      challenge,
      purpose,
      sub,
      sessionId,
      expiresAt: now + challengeTtlMs,
      createdAt: now,
    });
  };

  /** The stored challenge the response answers, consumed; the refusal names what did not fit. */
  const takeChallenge = async (
    response: unknown,
    status: 400 | 401,
    fits: (record: WebAuthnChallengeRecord) => boolean,
  ) => {
    const challenge = challengeOf(response);
    if (challenge === null) throw invalidPasskey(status, 'the response carries no readable client data');
    const record = await challenges.consume(db, challenge);
    if (!record || record.expiresAt <= clock.now() || !fits(record)) {
      throw invalidPasskey(
        status,
        'it answers no open challenge of this session (expired, used already, or asked for by another session)',
      );
    }
    return record;
  };

  /** The WebAuthn library throws on every mismatch (origin, RP ID, type, flags, signature); its message says which. */
  const verified = async <T>(status: 400 | 401, verify: () => Promise<T>): Promise<T> => {
    try {
      return await verify();
    } catch (error) {
      throw invalidPasskey(status, (error as Error).message.replace(/\.$/, ''));
    }
  };

  return {
    async registrationOptions(user, sessionId) {
      enabled();
      const existing = await passkeys.listBySub(db, user.sub);
      const options = await generateRegistrationOptions({
        rpName: deps.branding.name,
        rpID,
        userName: user.email,
        userDisplayName: user.email,
        userID: userHandle(user.sub),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({
          id: p.credentialId,
          transports: p.transports as AuthenticatorTransportFuture[],
        })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        timeout: challengeTtlMs,
      });
      await saveChallenge(options.challenge, 'registration', user.sub, sessionId);
      return options;
    },

    async register(user, sessionId, response, name, clientAddress) {
      enabled();
      const { challenge } = await takeChallenge(
        response,
        400,
        (r) => r.purpose === 'registration' && r.sub === user.sub && r.sessionId === sessionId,
      );
      const result = await verified(400, () =>
        verifyRegistrationResponse({
          response: response as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
        }),
      );
      if (!result.verified) throw invalidPasskey(400, 'the attestation does not verify');
      const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
      const passkey: PasskeyRecord = {
        id: randomUUID(),
        sub: user.sub,
        credentialId: credential.id,
        name,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        signCount: credential.counter,
        transports: credential.transports ?? [],
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        createdAt: clock.now(),
        lastUsedAt: null,
      };
      await deps.transaction(async (tx) => {
        if (!(await passkeys.insert(tx, passkey))) throw passkeyAlreadyRegistered();
        await deps.events.record(tx, {
          type: 'passkey.added',
          actor: user.sub,
          subject: user.sub,
          clientAddress,
          detail: { passkey_id: passkey.id, name },
        });
      });
      return passkey;
    },

    async list(user) {
      enabled();
      return passkeys.listBySub(db, user.sub);
    },

    async rename(user, id, name) {
      enabled();
      if (!(await passkeys.rename(db, user.sub, id, name))) throw passkeyNotFound();
      const renamed = (await passkeys.listBySub(db, user.sub)).find((p) => p.id === id);
      if (!renamed) throw passkeyNotFound();
      return renamed;
    },

    async remove(user, id, clientAddress) {
      enabled();
      const own = await passkeys.listBySub(db, user.sub);
      if (!own.some((p) => p.id === id)) throw passkeyNotFound();
      if (own.length === 1 && isSecondFactorRequired(user, deps.auth.secondFactor)) {
        const totp = await deps.totp.findConfirmedSubs(db, [user.sub]);
        if (!totp.has(user.sub)) throw secondFactorRequired();
      }
      await deps.transaction(async (tx) => {
        if (!(await passkeys.delete(tx, user.sub, id))) throw passkeyNotFound();
        await deps.events.record(tx, {
          type: 'passkey.removed',
          actor: user.sub,
          subject: user.sub,
          clientAddress,
          detail: { passkey_id: id },
        });
      });
    },

    async authenticationOptions(pending) {
      enabled();
      const own = pending ? await passkeys.listBySub(db, pending.sub) : [];
      const options = await generateAuthenticationOptions({
        rpID,
        allowCredentials: own.map((p) => ({
          id: p.credentialId,
          transports: p.transports as AuthenticatorTransportFuture[],
        })),
        userVerification: 'required',
        timeout: challengeTtlMs,
      });
      await saveChallenge(options.challenge, 'authentication', null, pending?.sessionId ?? null);
      return options;
    },

    async authenticate(response, pending, askedHere) {
      enabled();
      // Checked before the challenge is consumed: an assertion replayed from elsewhere spoils nothing.
      const asked = challengeOf(response);
      if (asked !== null && !askedHere.includes(asked))
        throw invalidPasskey(401, 'this browser did not ask for its challenge');
      const { challenge, sessionId } = await takeChallenge(
        response,
        401,
        (r) => r.purpose === 'authentication' && (r.sessionId === null || r.sessionId === pending?.sessionId),
      );
      // A challenge asked by a pending sign-in completes it; one asked by nobody is a passwordless sign-in.
      const boundToPending = sessionId !== null;
      const assertion = response as AuthenticationResponseJSON;
      const passkey = typeof assertion.id === 'string' ? await passkeys.findByCredentialId(db, assertion.id) : null;
      if (!passkey) throw invalidPasskey(401, 'this passkey is not registered here');
      if (boundToPending && passkey.sub !== pending?.sub)
        throw invalidPasskey(401, 'this passkey belongs to another account');
      // WebAuthn L2 §7.2 step 6: a user identified before the ceremony (the pending sign-in) may get no
      // handle back; a passwordless sign-in identifies its user by the handle, so it must be there.
      // The browser's answer: `response` may be missing whatever its type says.
      const userHandleSent = (assertion.response as AuthenticationResponseJSON['response'] | undefined)?.userHandle;
      if (!boundToPending && !userHandleSent)
        throw invalidPasskey(401, 'a sign-in without a password needs the user handle');
      if (userHandleSent && userHandleSent !== Buffer.from(userHandle(passkey.sub)).toString('base64url')) {
        throw invalidPasskey(401, 'the user handle does not match the passkey');
      }
      const result = await verified(401, () =>
        verifyAuthenticationResponse({
          response: assertion,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          credential: {
            id: passkey.credentialId,
            publicKey: Buffer.from(passkey.publicKey, 'base64url'),
            counter: passkey.signCount,
            transports: passkey.transports as AuthenticatorTransportFuture[],
          },
          requireUserVerification: true,
        }),
      );
      if (!result.verified) throw invalidPasskey(401, 'the signature does not verify');
      const { newCounter, credentialBackedUp } = result.authenticationInfo;
      if (
        !(await passkeys.recordUse(db, passkey.id, {
          signCount: newCounter,
          backedUp: credentialBackedUp,
          usedAt: clock.now(),
        }))
      ) {
        throw invalidPasskey(401, 'the signature counter did not advance (a cloned authenticator?)');
      }
      const user = await deps.users.findBySub(db, passkey.sub);
      if (!user || user.deletedAt !== null) throw invalidPasskey(401, 'the account of this passkey is gone');
      return { user, completesPending: boundToPending };
    },
  };
}

/**
 * WebAuthn user.id (a user handle, at most 64 bytes, §5.4.3): the SHA-256
 * of the sub, not the sub itself, which may be an e-mail-like string and
 * would be stored by every authenticator.
 */
function userHandle(sub: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(sub).digest());
}
