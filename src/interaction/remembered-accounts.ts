import { ApiError } from '../api-error.js';
import type { ActiveSession, SessionService } from '../accounts/sessions.js';
import { sealValue, unsealValue } from './sealed-value.js';

/**
 * Accounts remembered in this browser (docs/http-api.md, "Remembered accounts": GET /api/auth/accounts and
 * POST /api/auth/accounts/select), for prompt=select_account. The browser
 * keeps a sealed cookie listing the raw ids of the sessions it signed in
 * with; a session that ended (logout, expiry, revocation, deleted user)
 * silently drops out, so selecting can only bring back a sign-in that is
 * still valid on the server. No password is skipped.
 */
export const rememberedAccountsCookie = 'accounts';
const purpose = 'remembered-accounts';
/** A browser remembers at most this many accounts; the oldest goes first. */
const maxAccounts = 5;

export const accountNotRemembered = () =>
  new ApiError(400, 'ACCOUNT_NOT_REMEMBERED', 'The account is not remembered in this browser session.');

export interface RememberedAccount {
  sub: string;
  email: string;
  /** The profile's name, so that the chooser tells apart accounts whose addresses look alike; null when unset. */
  name: string | null;
  /** The account the session cookie points at now. */
  current: boolean;
}

export interface RememberedAccounts {
  /** The live accounts, and the cookie value to store back (null: clear it). */
  list(
    cookie: string | undefined,
    currentSid: string | null,
  ): Promise<{ accounts: RememberedAccount[]; cookie: string | null }>;
  /**
   * The raw session id to make current, or 400 ACCOUNT_NOT_REMEMBERED. The
   * chosen session is renewed (a new id; the remembered one stops working),
   * and `cookie` is the list to store back, holding the new id.
   */
  select(
    cookie: string | undefined,
    currentSid: string | null,
    sub: string,
  ): Promise<{ sessionId: string; session: ActiveSession; cookie: string }>;
  /**
   * Drops the account from this browser's list (or 400
   * ACCOUNT_NOT_REMEMBERED): `ended` is its session, for the caller to end
   * (a forgotten account stays signed in nowhere it cannot be reached),
   * `current` whether it was the signed-in one, and the accounts and cookie
   * that remain.
   */
  forget(
    cookie: string | undefined,
    currentSid: string | null,
    sub: string,
  ): Promise<{ ended: ActiveSession; current: boolean; accounts: RememberedAccount[]; cookie: string | null }>;
  /** The cookie value after signing in with `sessionId` (the authorization endpoint calls this). */
  remember(cookie: string | undefined, sessionId: string): string;
}

export function createRememberedAccounts(deps: {
  sessions: SessionService;
  cookiePassword: string;
}): RememberedAccounts {
  const read = (cookie: string | undefined): string[] => {
    const value = cookie ? unsealValue(cookie, deps.cookiePassword, purpose) : null;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  };
  const write = (sids: string[]) => sealValue(sids.slice(-maxAccounts), deps.cookiePassword, purpose);
  const withCurrent = (sids: string[], currentSid: string | null) =>
    currentSid === null ? sids : [...sids.filter((s) => s !== currentSid), currentSid];

  async function live(cookie: string | undefined, currentSid: string | null) {
    const found: { sessionId: string; active: ActiveSession }[] = [];
    for (const sessionId of withCurrent(read(cookie), currentSid)) {
      const active = await deps.sessions.resolve(sessionId);
      // One entry per account: the most recent sign-in wins.
      if (active) found.push({ sessionId, active });
    }
    const bySub = new Map(found.map((entry) => [entry.active.user.sub, entry]));
    return [...bySub.values()];
  }

  /** Most recent first, and the cookie to store back (null: clear it). */
  function answer(entries: { sessionId: string; active: ActiveSession }[], currentSid: string | null) {
    const accounts = entries
      .map(({ sessionId, active }) => ({
        sub: active.user.sub,
        email: active.user.email,
        name: active.user.name,
        current: sessionId === currentSid,
      }))
      .reverse();
    return { accounts, cookie: entries.length > 0 ? write(entries.map((e) => e.sessionId)) : null };
  }

  return {
    async list(cookie, currentSid) {
      return answer(await live(cookie, currentSid), currentSid);
    },

    async forget(cookie, currentSid, sub) {
      const entries = await live(cookie, currentSid);
      const entry = entries.find((e) => e.active.user.sub === sub);
      if (!entry) throw accountNotRemembered();
      const current = entry.sessionId === currentSid;
      const rest = answer(
        entries.filter((e) => e !== entry),
        currentSid,
      );
      return { ended: entry.active, current, ...rest };
    },

    async select(cookie, currentSid, sub) {
      const entries = await live(cookie, currentSid);
      const entry = entries.find((e) => e.active.user.sub === sub);
      if (!entry) throw accountNotRemembered();
      const sessionId = await deps.sessions.renew(entry.active.session.idHash);
      // Ended between the look-up and the renewal.
      if (sessionId === null) throw accountNotRemembered();
      const others = entries.filter((e) => e !== entry).map((e) => e.sessionId);
      return { sessionId, session: entry.active, cookie: write([...others, sessionId]) };
    },

    remember(cookie, sessionId) {
      return write(withCurrent(read(cookie), sessionId));
    },
  };
}
