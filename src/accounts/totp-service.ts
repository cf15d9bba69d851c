import type { Clock } from '../clock.js';
import type { EventLog } from '../events/index.js';
import type { AuthConfig, BrandingConfig } from '../config/types.js';
import type { UserRecord } from '../model/index.js';
import { seal, unseal } from '../security/index.js';
import type { PasskeyRepository, RecoveryCodeRepository, TotpRepository, Tx } from '../storage/repositories.js';
import { attemptWithinLimit, type LoginRateLimit } from './login-rate-limit.js';
import { isSecondFactorRequired } from './login-second-factors.js';
import { generateRecoveryCodes, hashRecoveryCode, normalizeRecoveryCode } from './recovery-codes.js';
import {
  invalidCode,
  secondFactorRequired,
  totpAlreadyRegistered,
  totpNotPending,
  totpNotRegistered,
} from './second-factor-errors.js';
import { generateTotpSecret, matchTotpStep, totpUri } from './totp.js';

/**
 * A user's authenticator app and its recovery codes (docs/http-api.md, "Second factors"):
 * begin → confirm with a first code (which hands out 10 recovery codes) →
 * sign-ins with codes → regenerate the recovery codes → remove. The secret
 * is sealed at rest for its user (src/security/seal.ts). Every code is
 * accepted once: a TOTP step through TotpRepository.useStep, a recovery
 * code through RecoveryCodeRepository.use, one conditional update each.
 * Codes checked against a registered app count against the login rate
 * limit (per account, per address, and the account's second-factor counter).
 */
export interface TotpEnrolment {
  /** Base32, for typing into an app by hand. */
  secret: string;
  otpauthUrl: string;
}

export interface TotpService {
  /** Starts (or restarts) an enrolment; 409 TOTP_ALREADY_REGISTERED when one is confirmed. */
  begin(user: UserRecord): Promise<TotpEnrolment>;
  /** The otpauth:// URL of the enrolment waiting for its first code (for the pages' QR code), or null. */
  pendingUri(user: UserRecord): Promise<string | null>;
  /** Confirms the enrolment with its first code; answers the new recovery codes. */
  confirm(user: UserRecord, code: string, clientAddress: string): Promise<string[]>;
  /** Removes the app and its recovery codes, after a code; 409 SECOND_FACTOR_REQUIRED when it is the user's last factor and one is required. */
  remove(user: UserRecord, code: string, clientAddress: string): Promise<void>;
  /** New recovery codes after a code; the old ones stop working. */
  regenerateRecoveryCodes(user: UserRecord, code: string, clientAddress: string): Promise<string[]>;
  /** A sign-in's code: returns when it is right and unused, else 401 INVALID_CODE (or 429). */
  verifySignInCode(user: UserRecord, code: string, clientAddress: string): Promise<void>;
  /** A sign-in's recovery code: spends it and answers how many are left, else 401 INVALID_CODE (or 429). */
  useRecoveryCode(user: UserRecord, code: string, clientAddress: string): Promise<number>;
  recoveryCodesLeft(sub: string): Promise<number>;
}

export function createTotpService(deps: {
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  totp: TotpRepository;
  recoveryCodes: RecoveryCodeRepository;
  passkeys: PasskeyRepository;
  rateLimit: LoginRateLimit;
  /** Seals TOTP secrets (sealingKey(secret, 'totp secrets')). */
  secretKey: Buffer;
  /** Keys the recovery-code hashes (sealingKey(secret, 'recovery codes')). */
  recoveryCodeKey: Buffer;
  /** Read at each use (a config reload changes them in place): the issuer is auth.totp_issuer, else branding.name. */
  auth: Pick<AuthConfig, 'secondFactor' | 'passkeysEnabled' | 'totpIssuer'>;
  branding: Pick<BrandingConfig, 'name'>;
  events: EventLog;
  clock: Clock;
}): TotpService {
  const { db, totp, recoveryCodes, clock } = deps;
  const issuer = () => deps.auth.totpIssuer ?? deps.branding.name;
  const keysOf = (user: UserRecord, clientAddress: string) => ({
    account: user.email.toLowerCase(),
    clientAddress,
    secondFactor: true,
  });

  const openSecret = (sub: string, sealed: string): string => {
    const secret = unseal(sealed, deps.secretKey, sub);
    // Not the user's doing: the row was sealed under another security.secret.
    if (secret === null)
      throw new Error(
        `the TOTP secret of ${sub} cannot be opened: security.secret differs from the one it was sealed with`,
      );
    return secret.toString('utf8');
  };

  const confirmed = async (sub: string) => {
    const record = await totp.find(db, sub);
    return record?.confirmedAt != null ? record : null;
  };

  /** The code's step, once: null when wrong, reused, or older than one used already. */
  const spendCode = async (sub: string, code: string): Promise<true | null> => {
    const record = await confirmed(sub);
    if (!record) return null;
    const step = matchTotpStep(openSecret(sub, record.sealedSecret), code, clock.now());
    return step !== null && (await totp.useStep(db, sub, step)) ? true : null;
  };

  const checkCode = (user: UserRecord, code: string, clientAddress: string) =>
    attemptWithinLimit(deps.rateLimit, keysOf(user, clientAddress), () => spendCode(user.sub, code), invalidCode);

  const issueRecoveryCodes = async (tx: Tx, sub: string): Promise<string[]> => {
    const codes = generateRecoveryCodes();
    const hashes = codes.map((code) => hashRecoveryCode(normalizeRecoveryCode(code) as string, deps.recoveryCodeKey));
    await recoveryCodes.replace(tx, sub, hashes, clock.now());
    return codes;
  };

  const recoveryCodesLeft = async (sub: string) => (await recoveryCodes.countUnused(db, [sub])).get(sub) ?? 0;

  const requireRegistered = async (sub: string) => {
    if (!(await confirmed(sub))) throw totpNotRegistered();
  };

  return {
    async begin(user) {
      if (await confirmed(user.sub)) throw totpAlreadyRegistered();
      const secret = generateTotpSecret();
      const sealedSecret = seal(Buffer.from(secret), deps.secretKey, user.sub);
      const saved = await totp.savePending(db, {
        sub: user.sub,
        sealedSecret,
        confirmedAt: null,
        lastUsedStep: null,
        createdAt: clock.now(),
      });
      if (!saved) throw totpAlreadyRegistered();
      return { secret, otpauthUrl: totpUri(secret, user.email, issuer()) };
    },

    async pendingUri(user) {
      const record = await totp.find(db, user.sub);
      if (!record || record.confirmedAt !== null) return null;
      return totpUri(openSecret(user.sub, record.sealedSecret), user.email, issuer());
    },

    async confirm(user, code, clientAddress) {
      const record = await totp.find(db, user.sub);
      if (!record) throw totpNotPending();
      if (record.confirmedAt !== null) throw totpAlreadyRegistered();
      const step = matchTotpStep(openSecret(user.sub, record.sealedSecret), code, clock.now());
      if (step === null) throw invalidCode();
      return deps.transaction(async (tx) => {
        // The secret read above, still pending: a concurrent confirm or a new begin makes this one lose.
        if (!(await totp.confirm(tx, user.sub, record.sealedSecret, step, clock.now()))) throw invalidCode();
        await deps.events.record(tx, {
          type: 'second_factor.added',
          actor: user.sub,
          subject: user.sub,
          clientAddress,
          detail: { factor: 'totp' },
        });
        return issueRecoveryCodes(tx, user.sub);
      });
    },

    async remove(user, code, clientAddress) {
      await requireRegistered(user.sub);
      if (isSecondFactorRequired(user, deps.auth.secondFactor)) {
        const passkeys = deps.auth.passkeysEnabled
          ? ((await deps.passkeys.countBySubs(db, [user.sub])).get(user.sub) ?? 0)
          : 0;
        if (passkeys === 0) throw secondFactorRequired();
      }
      await checkCode(user, code, clientAddress);
      await deps.transaction(async (tx) => {
        await totp.delete(tx, user.sub);
        await recoveryCodes.deleteBySub(tx, user.sub);
        await deps.events.record(tx, {
          type: 'second_factor.removed',
          actor: user.sub,
          subject: user.sub,
          clientAddress,
          detail: { factor: 'totp' },
        });
      });
    },

    async regenerateRecoveryCodes(user, code, clientAddress) {
      await requireRegistered(user.sub);
      await checkCode(user, code, clientAddress);
      return deps.transaction((tx) => issueRecoveryCodes(tx, user.sub));
    },

    async verifySignInCode(user, code, clientAddress) {
      await checkCode(user, code, clientAddress);
    },

    async useRecoveryCode(user, code, clientAddress) {
      await attemptWithinLimit(
        deps.rateLimit,
        keysOf(user, clientAddress),
        async () => {
          const normalized = normalizeRecoveryCode(code);
          if (normalized === null) return null;
          return (await recoveryCodes.use(
            db,
            user.sub,
            hashRecoveryCode(normalized, deps.recoveryCodeKey),
            clock.now(),
          ))
            ? true
            : null;
        },
        invalidCode,
      );
      return recoveryCodesLeft(user.sub);
    },

    recoveryCodesLeft,
  };
}
