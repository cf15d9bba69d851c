import { isAlias, isMap, isScalar, isSeq, type Document, type Pair } from 'yaml';
import type { AliasTargets } from './check-aliases.js';

export interface PlainValueProblem {
  /** Offset in the text of the key or merge value at fault. */
  offset: number;
  message: string;
}

/**
 * The document as plain objects, arrays and scalars, in one walk of the
 * nodes. yaml's own toJS would do, but it finds each alias's anchor by
 * scanning every anchor and alias before it (minutes for a file of many
 * aliases), throws on a bad merge, and prints a process warning that quotes
 * a key written as a list or mapping. Here aliases come from the targets
 * checkAliases found, and those mistakes are problems at their place. As
 * in yaml, every alias of a node shares one plain value, keys written
 * before or after a `<<` merge win over the merged ones, and an empty
 * document is null. (The pairs of a YAML 1.1 !!omap or !!pairs, which no
 * config key takes, become nulls.)
 */
export function toPlainValue(
  document: Document,
  targets: AliasTargets,
): { value: unknown; problems: PlainValueProblem[] } {
  const problems: PlainValueProblem[] = [];
  const shared = new Map<unknown, unknown>();

  const convert = (node: unknown): unknown => {
    if (isAlias(node)) {
      const target = targets.get(node);
      if (!shared.has(target)) shared.set(target, convert(target));
      return shared.get(target);
    }
    let value: unknown;
    if (isScalar(node)) value = node.value;
    else if (isSeq(node)) value = node.items.map(convert);
    else if (isMap(node)) value = toObject(node.items);
    else return null;
    if (node.anchor) shared.set(node, value);
    return value;
  };

  const toObject = (pairs: Pair[]): Record<string, unknown> => {
    const object: Record<string, unknown> = {};
    for (const pair of pairs) {
      if (isScalar(pair.key) && typeof pair.key.value === 'symbol') {
        for (const source of mergeSources(pair.value)) {
          for (const [key, value] of Object.entries(source))
            if (!Object.hasOwn(object, key)) setOwn(object, key, value);
        }
        continue;
      }
      const key = keyText(pair.key);
      if (key === null) {
        problems.push({
          offset: rangeStart(pair.key),
          message: 'a key must be a plain value (text, a number, true or false), not a list or mapping',
        });
        continue;
      }
      setOwn(object, key, convert(pair.value));
    }
    return object;
  };

  /** With `merge: true`, yaml reads an unquoted `<<` key as a symbol; it takes a mapping, an alias of one, or a list (or an alias of a list) of those. */
  const mergeSources = (value: unknown): Record<string, unknown>[] => {
    const sources: Record<string, unknown>[] = [];
    const list = isAlias(value) ? targets.get(value) : value;
    for (const source of isSeq(list) ? list.items : [value]) {
      const resolved = isAlias(source) ? targets.get(source) : source;
      if (isMap(resolved)) sources.push(convert(source) as Record<string, unknown>);
      else
        problems.push({
          offset: rangeStart(source),
          message: 'a merge (<<) takes a mapping, an alias of one (<<: *defaults) or a list of them',
        });
    }
    return sources;
  };

  /** A key as the source locator finds it again: its scalar value as text, '' for an empty key; null for a list or mapping. */
  const keyText = (key: unknown): string | null => {
    const resolved = isAlias(key) ? targets.get(key) : key;
    if (resolved === null || resolved === undefined) return '';
    if (!isScalar(resolved)) return null;
    const value = resolved.value;
    if (value === null || value === undefined) return '';
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects are answered with null
    return typeof value === 'object' ? null : String(value);
  };

  const value = convert(document.contents);
  return { value, problems };
}

/** A key "__proto__" stays a plain key instead of setting the prototype. */
function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

function rangeStart(node: unknown): number {
  return (node as { range?: [number, number, number] | null } | null)?.range?.[0] ?? 0;
}
