import type { Output } from '../output.js';
import type { AdminUser, UserListResponse } from './admin-api-types.js';
import { renderTable, type TableColumn } from './render-table.js';

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** `totp`, `2 passkeys`, `totp+1 passkey`, or `no`: the counts are in `users get`. */
function secondFactors(user: AdminUser): string {
  const factors = [
    ...(user.totp_registered ? ['totp'] : []),
    ...(user.passkey_count > 0 ? [`${user.passkey_count} ${user.passkey_count === 1 ? 'passkey' : 'passkeys'}`] : []),
  ];
  return factors.length === 0 ? 'no' : factors.join('+');
}

/**
 * The sub is never cut: it is what every other command takes. On a narrow
 * terminal EMAIL is cut to 16 and 2FA to 4 first, then MANAGED BY, ROLE,
 * VERIFIED and 2FA are left out in that order, then EMAIL is cut down to
 * 12; LOCKED and DELETED stay.
 */
function columnsFor(locked: ReadonlySet<string>): TableColumn<AdminUser>[] {
  return [
    { header: 'EMAIL', cell: (user) => user.email, shrinkFirstTo: 16, shrinkTo: 12 },
    { header: 'SUB', cell: (user) => user.sub },
    { header: 'ROLE', cell: (user) => user.role, dropOrder: 2 },
    { header: 'MANAGED BY', cell: (user) => user.managed_by, dropOrder: 1 },
    { header: 'VERIFIED', cell: (user) => yesNo(user.email_verified), dropOrder: 3 },
    { header: '2FA', cell: secondFactors, shrinkFirstTo: 4, shrinkTo: 4, dropOrder: 4 },
    { header: 'LOCKED', cell: (user) => yesNo(locked.has(user.sub)) },
  ];
}

// `2026-11-22T10:15:00.000Z` → `2026-11-22 10:15`: minutes are enough in a table; `users get` has the rest.
const deletedColumn: TableColumn<AdminUser> = {
  header: 'DELETED (UTC)',
  cell: (user) => user.deleted_at?.slice(0, 16).replace('T', ' ') ?? '',
};

/**
 * The `users list` table and its footer (`page 1 of 5 · 87 users`). LOCKED
 * comes from GET /api/admin/locked-users (`locked`: the subs blocked now).
 * The DELETED column appears when a listed user is soft-deleted, and such
 * rows are dimmed on a colour terminal.
 */
export function renderUserList(output: Output, answer: UserListResponse, locked: ReadonlySet<string>): string[] {
  const { users, pagination } = answer;
  const lines: string[] = [];
  if (users.length === 0) {
    lines.push(pagination.total === 0 ? 'no users match' : 'no users on this page');
  } else {
    const columns = columnsFor(locked);
    const shown = users.some((user) => user.deleted_at !== null) ? [...columns, deletedColumn] : columns;
    lines.push(
      ...renderTable(output, shown, users, {
        rowStyle: (user) => (user.deleted_at === null ? undefined : output.color.dim),
      }),
    );
  }
  lines.push('', output.color.dim(describePage(answer)));
  return lines;
}

function describePage({ pagination }: UserListResponse): string {
  const pages = Math.max(1, Math.ceil(pagination.total / pagination.page_size));
  const noun = pagination.total === 1 ? 'user' : 'users';
  return `page ${pagination.page} of ${pages} · ${pagination.total} ${noun}`;
}
