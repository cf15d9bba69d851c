import type { Output } from '../output.js';
import type { AdminUser, UserListResponse } from './admin-api-types.js';
import { renderTable, type TableColumn } from './render-table.js';

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

// On a narrow terminal PASSKEYS, TOTP and VERIFIED go first, then EMAIL and SUB are cut.
const columns: TableColumn<AdminUser>[] = [
  { header: 'EMAIL', cell: (user) => user.email, shrinkTo: 16 },
  { header: 'SUB', cell: (user) => user.sub, shrinkTo: 12 },
  { header: 'ROLE', cell: (user) => user.role },
  { header: 'MANAGED BY', cell: (user) => user.managed_by },
  { header: 'VERIFIED', cell: (user) => yesNo(user.email_verified), dropOrder: 3 },
  { header: 'TOTP', cell: (user) => yesNo(user.totp_registered), dropOrder: 2 },
  { header: 'PASSKEYS', cell: (user) => String(user.passkey_count), align: 'right', dropOrder: 1 },
];

// `2026-11-22T10:15:00.000Z` → `2026-11-22 10:15`: minutes are enough in a table; `users get` has the rest.
const deletedColumn: TableColumn<AdminUser> = {
  header: 'DELETED (UTC)',
  cell: (user) => user.deleted_at?.slice(0, 16).replace('T', ' ') ?? '',
};

/**
 * The `users list` table and its footer (`page 1 of 5 · 87 users`). The
 * DELETED column appears when a listed user is soft-deleted, and such rows
 * are dimmed on a colour terminal.
 */
export function renderUserList(output: Output, answer: UserListResponse): string[] {
  const { users, pagination } = answer;
  const lines: string[] = [];
  if (users.length === 0) {
    lines.push(pagination.total === 0 ? 'no users match' : 'no users on this page');
  } else {
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
