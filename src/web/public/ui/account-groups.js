// @ts-check
import { callApi, pageData } from './api.js';

/**
 * The "Groups" section of /account (src/web/pages/account-page.ts): the
 * user's groups from GET /api/user/groups, read-only. The route answers one
 * entry per group and source; the page shows each group once, by name, with
 * where its memberships come from. Written with textContent: the names come
 * from the server's data.
 */
const data = pageData();
const list = document.getElementById('groups-list');
if (list) void render(list);

/** @param {HTMLElement} container */
async function render(container) {
  const t = data.account.groups;
  const loaded = await callApi('GET', '/api/user/groups');
  container.setAttribute('aria-busy', 'false');
  if (!loaded.ok) {
    if (loaded.status === 401) return location.assign(`/login?${new URLSearchParams({ return_to: '/account' })}`);
    /** @type {HTMLElement} */ (document.getElementById('groups-status')).textContent = data.account.loadFailed;
    return;
  }
  /** @type {{ id: string, name: string, source: 'config' | 'database' | 'upstream' }[]} */
  const entries = loaded.body?.groups ?? [];
  /** @type {Map<string, { name: string, sources: string[] }>} */
  const groups = new Map();
  for (const entry of entries) {
    const group = groups.get(entry.id) ?? { name: entry.name, sources: [] };
    group.sources.push(t.sources[entry.source] ?? entry.source);
    groups.set(entry.id, group);
  }
  const byName = [...groups].sort(([, a], [, b]) => a.name.localeCompare(b.name, data.locale));
  container.replaceChildren(
    ...byName.map(([id, group]) => {
      const item = document.createElement('li');
      item.dataset.groupId = id;
      const text = document.createElement('div');
      const name = document.createElement('strong');
      name.textContent = group.name;
      const detail = document.createElement('span');
      detail.className = 'hint';
      detail.textContent = group.sources.join(' · ');
      text.append(name, detail);
      item.append(text);
      return item;
    }),
  );
  /** @type {HTMLElement} */ (document.getElementById('groups-none')).hidden = groups.size > 0;
}
