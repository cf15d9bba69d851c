/**
 * The characters no request may carry in a string (issue #10, see
 * docs/http-api.md "Control characters"): NUL, which PostgreSQL cannot
 * store in text at all (SQLite can, so the two databases would answer the
 * same request differently), and the other C0 controls and DEL, which no
 * e-mail, identifier, password or search text needs and which only serve
 * to make stored values, log lines and pages look like something else.
 * TAB, LF and CR stay allowed: free text and pasted passwords may hold them.
 */
const controlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Where the first refused character is: the path of the string, or of the object one of whose keys holds it. */
export interface ControlCharacterAt {
  path: (string | number)[];
  inKey: boolean;
}

/** Parsed JSON and forms are plain objects; hapi's query and form objects have a null prototype. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** A container on the walk, linked to its parent so that a path is built only for the string that fails. */
interface Frame {
  node: unknown;
  key: string | number | null;
  parent: Frame | null;
}

function pathOf(frame: Frame | null, last?: string | number): (string | number)[] {
  const path: (string | number)[] = last === undefined ? [] : [last];
  for (let f = frame; f !== null && f.key !== null; f = f.parent) path.push(f.key);
  return path.reverse();
}

/**
 * Looks at every string of a parsed input (path params, query, JSON or form
 * body) at any depth, keys included, with one regex test each. A loop with
 * its own stack rather than recursion: a 64 KiB JSON body can nest deeper
 * than the call stack. Buffers and streams (unparsed bodies) are not looked at.
 */
export function findControlCharacter(input: unknown): ControlCharacterAt | null {
  if (typeof input === 'string') return controlCharacter.test(input) ? { path: [], inKey: false } : null;
  const stack: Frame[] = [{ node: input, key: null, parent: null }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const node = frame.node;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === 'string') {
          if (controlCharacter.test(item)) return { path: pathOf(frame, i), inKey: false };
        } else if (typeof item === 'object' && item !== null) stack.push({ node: item, key: i, parent: frame });
      }
    } else if (isPlainObject(node)) {
      for (const key of Object.keys(node)) {
        if (controlCharacter.test(key)) return { path: pathOf(frame), inKey: true };
        const item = node[key];
        if (typeof item === 'string') {
          if (controlCharacter.test(item)) return { path: pathOf(frame, key), inKey: false };
        } else if (typeof item === 'object' && item !== null) stack.push({ node: item, key, parent: frame });
      }
    }
  }
  return null;
}
