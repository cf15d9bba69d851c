import { describe, expect, it } from 'vitest';
import { requireAdmin } from '../../src/admin/require-admin.js';
import { ApiError } from '../../src/api-error.js';
import type { UserRecord } from '../../src/model/index.js';

/** The services' own admin check, behind the routes' auth mode (which already answers 403 over HTTP). */
describe('requireAdmin', () => {
  const caller = (overrides: Partial<UserRecord>) => ({ role: 'admin', deletedAt: null, ...overrides }) as UserRecord;

  it('lets a live admin through', () => {
    expect(() => requireAdmin(caller({}))).not.toThrow();
  });

  it.each([
    ['a user', { role: 'user' as const }],
    ['a soft-deleted admin', { deletedAt: 1 }],
  ])('refuses %s with 403 FORBIDDEN', (_, overrides) => {
    const refusal = (() => {
      try {
        requireAdmin(caller(overrides));
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });
});
