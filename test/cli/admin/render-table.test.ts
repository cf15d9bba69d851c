import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { createCapturedOutput } from '../../../src/cli/output.js';
import { renderTable, type TableColumn } from '../../../src/cli/admin/render-table.js';
import { renderUserList } from '../../../src/cli/admin/render-user-list.js';
import type { AdminUser } from '../../../src/cli/admin/admin-api-types.js';

interface Row {
  id: string;
  name: string;
  count: number;
}

const columns: TableColumn<Row>[] = [
  { header: 'ID', cell: (row) => row.id, shrinkTo: 6 },
  { header: 'NAME', cell: (row) => row.name, shrinkTo: 6 },
  { header: 'COUNT', cell: (row) => String(row.count), align: 'right', dropOrder: 1 },
];
const rows: Row[] = [
  { id: 'short', name: 'a fairly long name here', count: 7 },
  { id: 'a-much-longer-identifier', name: 'b', count: 12345 },
];

const outputOf = (columns: number) => ({ ...createCapturedOutput(), columns });
const widest = (lines: string[]) => Math.max(...lines.map((line) => Array.from(line).length));

describe('renderTable', () => {
  it('prints a header and aligned rows at natural width when the terminal is wide', () => {
    expect(renderTable(outputOf(100), columns, rows)).toEqual([
      'ID                        NAME                     COUNT',
      'short                     a fairly long name here      7',
      'a-much-longer-identifier  b                        12345',
    ]);
  });

  it.each([56, 50, 40, 30, 24])(
    'fits %i columns: drops optional columns first, then cuts the widest with …',
    (width) => {
      const lines = renderTable(outputOf(width), columns, rows);
      expect(widest(lines)).toBeLessThanOrEqual(width);
      expect(lines[0].startsWith('ID')).toBe(true);
      if (width < 56) expect(lines[0]).not.toContain('COUNT');
      if (width < 49) expect(lines.join('\n')).toContain('…');
    },
  );

  it('keeps natural widths when the width is unknown (a pseudo-terminal without a size says 0)', () => {
    expect(renderTable(outputOf(0), columns, rows)).toEqual(renderTable(outputOf(100), columns, rows));
  });

  it('cuts a cell to the column width with a trailing ellipsis', () => {
    const lines = renderTable(outputOf(30), columns, rows);
    // 49 wide without COUNT: 19 too many, taken one by one from the wider column → 14 + 2 + 14.
    expect(lines[1]).toBe('short           a fairly long…');
    expect(lines[2]).toBe('a-much-longer…  b');
  });

  it('never goes below the shrink limit: a too narrow terminal gets an overflowing table, not an unreadable one', () => {
    const lines = renderTable(outputOf(5), columns, rows);
    expect(lines[2]).toBe('a-muc…  b');
  });

  it('cuts columns with shrinkFirstTo before leaving any out, and further only after', () => {
    const cutFirst = columns.map((column) => (column.header === 'ID' ? { ...column, shrinkFirstTo: 10 } : column));
    // ID cut to 10 would make 10 + 23 + 5 and two gaps, 42: COUNT stays, and the cuts go to the widest.
    expect(renderTable(outputOf(42), cutFirst, rows)).toEqual([
      'ID                NAME               COUNT',
      'short             a fairly long na…      7',
      'a-much-longer-i…  b                  12345',
    ]);
    // One column narrower, COUNT goes.
    expect(renderTable(outputOf(41), cutFirst, rows)[0]).toMatch(/^ID\s+NAME$/);
  });

  it('colours only when the output has colours, after measuring', () => {
    const output = { ...outputOf(100), color: new Chalk({ level: 1 }) };
    const lines = renderTable(output, columns, rows, {
      rowStyle: (row) => (row.count > 100 ? output.color.dim : undefined),
    });
    expect(lines[0]).toBe(`\u001b[1m${renderTable(outputOf(100), columns, rows)[0]}\u001b[22m`);
    expect(lines[2].startsWith('\u001b[2m')).toBe(true);
    expect(lines[1]).not.toContain('\u001b');
  });
});

const user = (overrides: Partial<AdminUser>): AdminUser => ({
  managed_by: 'database',
  sub: 'sub-1',
  email: 'one@example.com',
  role: 'user',
  email_verified: true,
  email_verification_required: false,
  has_password: true,
  totp_registered: false,
  totp_recovery_codes_missing: false,
  second_factor_required: false,
  passkey_count: 0,
  deleted_at: null,
  ...overrides,
});

const uuid = '3464e2d8-deff-4aa1-803a-c3b61531fc30';
const page = (users: AdminUser[]) => ({ users, pagination: { page: 1, page_size: 20, total: users.length } });
const team = [
  user({ sub: uuid, email: 'ada.lovelace@analytical-engines.example.com', role: 'admin', totp_registered: true }),
  user({ sub: 'demo-admin', email: 'admin@example.com', managed_by: 'config', passkey_count: 2 }),
  user({ sub: 'aa1be964-adf7-49a8-bb5d-c507e2b0f6bf', email: 'grace@example.com', email_verified: false }),
];

describe('renderUserList', () => {
  it('shows status columns: verified, second factors, locked', () => {
    const lines = renderUserList(outputOf(160), page(team), new Set(['demo-admin']));
    expect(lines[0]).toMatch(/^EMAIL\s+SUB\s+ROLE\s+MANAGED BY\s+VERIFIED\s+2FA\s+LOCKED$/);
    expect(lines[1]).toMatch(
      new RegExp(`^ada.lovelace@analytical-engines.example.com  ${uuid}  admin\\s+database\\s+yes\\s+totp\\s+no$`),
    );
    expect(lines[2]).toMatch(/^admin@example.com\s+demo-admin\s+user\s+config\s+yes\s+2 passkeys\s+yes$/);
    expect(lines[3]).toMatch(
      /^grace@example.com\s+aa1be964-adf7-49a8-bb5d-c507e2b0f6bf\s+user\s+database\s+no\s+no\s+no$/,
    );
    const both = renderUserList(outputOf(160), page([user({ totp_registered: true, passkey_count: 1 })]), new Set());
    expect(both[1]).toMatch(/\stotp\+1 passkey\s+no$/);
  });

  it.each([120, 80, 60])('keeps every sub whole at %i columns and cuts the e-mails first', (width) => {
    const lines = renderUserList(outputOf(width), page(team), new Set());
    expect(widest(lines)).toBeLessThanOrEqual(width);
    for (const [index, member] of team.entries()) expect(lines[index + 1]).toContain(` ${member.sub} `);
    expect(lines[0]).toMatch(/\sLOCKED$/);
    if (width === 120) expect(lines[0]).toMatch(/^EMAIL\s+SUB\s+ROLE\s+MANAGED BY\s+VERIFIED\s+2FA\s+LOCKED$/);
    // 80: MANAGED BY and ROLE make way for the status columns; 60: only LOCKED is left beside them.
    if (width === 80) expect(lines[0]).toMatch(/^EMAIL\s+SUB\s+VERIFIED\s+2FA\s+LOCKED$/);
    if (width === 60) expect(lines[0]).toMatch(/^EMAIL\s+SUB\s+LOCKED$/);
    if (width < 120) expect(lines[1]).toMatch(/^ada\.lovel\S*… /);
  });

  it('ends with a page footer and marks deleted users in a DELETED column', () => {
    const lines = renderUserList(
      outputOf(120),
      {
        users: [user({}), user({ sub: 'sub-2', email: 'two@example.com', deleted_at: '2026-11-22T10:15:42.000Z' })],
        pagination: { page: 2, page_size: 2, total: 87 },
      },
      new Set(),
    );
    expect(lines[0]).toMatch(/^EMAIL\s+SUB\s+ROLE\s+MANAGED BY\s+VERIFIED\s+2FA\s+LOCKED\s+DELETED \(UTC\)$/);
    expect(lines[1]).not.toContain('2026');
    expect(lines[2]).toMatch(/^two@example.com\s+sub-2 .*2026-11-22 10:15$/);
    expect(lines.at(-1)).toBe('page 2 of 44 · 87 users');
    const narrow = renderUserList(
      outputOf(80),
      page([user({ sub: uuid, deleted_at: '2026-11-22T10:15:42.000Z' })]),
      new Set(),
    );
    expect(narrow[0]).toMatch(/\sLOCKED\s+DELETED \(UTC\)$/);
    expect(narrow[1]).toContain(uuid);
  });

  it('has no DELETED column when nobody listed is deleted, and says when nothing matches', () => {
    expect(renderUserList(outputOf(120), page([user({})]), new Set())).toEqual([
      expect.not.stringContaining('DELETED'),
      expect.any(String),
      '',
      'page 1 of 1 · 1 user',
    ]);
    expect(renderUserList(outputOf(120), page([]), new Set())).toEqual(['no users match', '', 'page 1 of 1 · 0 users']);
  });
});
