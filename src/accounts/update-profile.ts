import { userNotEditable } from '../api-error.js';
import type { Clock } from '../clock.js';
import type { I18nConfig } from '../config/types.js';
import type { UserProfileFields, UserRecord } from '../model/index.js';
import type { Tx, UserRepository } from '../storage/repositories.js';
import { invalidField } from './invalid-field.js';

/** The fields PATCH /api/user sets; absent ones stay, null clears. Names arrive trimmed and bounded by the edge. */
export type ProfileChanges = Partial<UserProfileFields>;

/**
 * A user editing their own profile (docs/http-api.md, "Your own account"). Config-managed users'
 * profiles come from the file, all four fields, declared or not
 * (docs/http-api.md "Profile"): any change answers 403 USER_NOT_EDITABLE.
 * The locale must be one of i18n.locales, compared case-insensitively and
 * stored as the config spells it. Only fields that really change are
 * written, so updated_at (the OIDC claim) moves only on a change.
 */
export interface ProfileUpdater {
  update(user: UserRecord, changes: ProfileChanges): Promise<UserRecord>;
}

export function createProfileUpdater(deps: {
  db: Tx;
  users: UserRepository;
  i18n: I18nConfig;
  clock: Clock;
}): ProfileUpdater {
  const offeredLocale = (locale: string): string => {
    const offered = deps.i18n.locales.find((candidate) => candidate.toLowerCase() === locale.toLowerCase());
    if (offered === undefined) throw invalidField('locale', `must be one of ${deps.i18n.locales.join(', ')}`);
    return offered;
  };

  return {
    async update(user, changes) {
      const given = (Object.keys(changes) as (keyof ProfileChanges)[]).filter((field) => changes[field] !== undefined);
      if (given.length === 0) return user;
      if (user.managedBy !== 'database') throw userNotEditable();
      const wanted: ProfileChanges = { ...changes };
      if (typeof wanted.locale === 'string') wanted.locale = offeredLocale(wanted.locale);
      const changed: ProfileChanges = {};
      for (const field of given) if (wanted[field] !== user[field]) changed[field] = wanted[field];
      if (Object.keys(changed).length === 0) return user;
      const updated = { ...user, ...changed, updatedAt: deps.clock.now() };
      await deps.users.update(deps.db, user.sub, { ...changed, updatedAt: updated.updatedAt });
      return updated;
    },
  };
}
