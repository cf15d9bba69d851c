import { describe, expect, it } from 'vitest';
import { createCapturedOutput } from '../../../src/cli/output.js';
import { renderGroupList } from '../../../src/cli/admin/render-group-list.js';

/** The empty answer of `groups list`; the tables are in groups-commands.storage.test.ts. */
describe('group tables', () => {
  it('say where groups come from when there are none', () => {
    expect(renderGroupList(createCapturedOutput(), [])).toEqual([
      'no groups: declare them under `groups` in the config file and run `idp apply`',
    ]);
  });
});
