/** A location inside the config: keys and array indexes from the root. */
export type ConfigPath = readonly (string | number)[];

const plainKey = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * `['clients', 2, 'redirect_uris', 0]` → `clients[2].redirect_uris[0]`. Keys
 * that are not plain identifiers (locales such as `pt-BR` are; `a.b` is not)
 * are quoted so that the path stays unambiguous.
 */
export function formatConfigPath(path: ConfigPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (plainKey.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** An ajv instancePath (`/clients/2/redirect_uris/0`, RFC 6901) → path segments; numbers only inside arrays. */
export function parseJsonPointer(pointer: string, root: unknown): (string | number)[] {
  if (pointer === '') return [];
  const path: (string | number)[] = [];
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const segment = Array.isArray(node) ? Number(key) : key;
    path.push(segment);
    node = node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[segment] : undefined;
  }
  return path;
}
