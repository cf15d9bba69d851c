import type { Output } from '../output.js';
import type { AdminGroup, UserGroup } from './admin-api-types.js';
import { renderTable, type TableColumn } from './render-table.js';

// On a narrow terminal DESCRIPTION goes first, then NAME is cut.
const groupColumns: TableColumn<AdminGroup>[] = [
  { header: 'ID', cell: (group) => group.id },
  { header: 'NAME', cell: (group) => group.name, shrinkTo: 12 },
  { header: 'MEMBERS', cell: (group) => String(group.member_count), align: 'right' },
  { header: 'DESCRIPTION', cell: (group) => group.description ?? '', shrinkTo: 16, dropOrder: 1 },
];

/** The `groups list` table; groups live in the config file, so an empty list says where to declare them. */
export function renderGroupList(output: Output, groups: AdminGroup[]): string[] {
  if (groups.length === 0) return ['no groups: declare them under `groups` in the config file and run `idp apply`'];
  return renderTable(output, groupColumns, groups);
}

const userGroupColumns: TableColumn<UserGroup>[] = [
  { header: 'GROUP', cell: (group) => group.id },
  { header: 'NAME', cell: (group) => group.name, shrinkTo: 12 },
  { header: 'SOURCE', cell: (group) => group.source },
];

/** The `users groups` table: one row per group and source (config, database, upstream). */
export function renderUserGroups(output: Output, groups: UserGroup[]): string[] {
  if (groups.length === 0) return ['in no group'];
  return renderTable(output, userGroupColumns, groups);
}
