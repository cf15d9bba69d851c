import { isAlias, isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import type { ConfigPath } from './config-path.js';
import type { ParsedYaml } from './parse-yaml.js';

export interface SourcePosition {
  line: number;
  column: number;
}

/** Where a problem points: the key of the last path segment (an unknown key) or its value (a bad value). */
export type LocateTarget = 'key' | 'value';

export type SourceLocator = (path: ConfigPath, target?: LocateTarget) => SourcePosition | null;

/** The node written at a path, or null when the path leaves the file. */
export function findNode(parsed: ParsedYaml, path: ConfigPath): unknown {
  let node: unknown = parsed.document.contents;
  for (const segment of path) {
    node = resolveAlias(node, parsed);
    if (isMap(node))
      node = node.items.find((item) => isPair(item) && keyText(item.key) === String(segment))?.value ?? null;
    else if (isSeq(node) && typeof segment === 'number') node = node.items[segment] ?? null;
    else return null;
  }
  return resolveAlias(node, parsed);
}

/** Whether the string at a path was written as an unquoted (plain) scalar. */
export function isPlainScalarAt(parsed: ParsedYaml, path: ConfigPath): boolean {
  const node = findNode(parsed, path);
  return isScalar(node) && node.type === 'PLAIN';
}

/**
 * Finds the line and column of a config path in the parsed document. It
 * walks down the path only when asked, so a valid file of 10,000 users costs
 * nothing here and each problem costs one walk of its own depth. A path that
 * leaves the file (a value added by a default) points at the deepest part
 * that is written in the file; a top-level key that is not written at all
 * gives null (a warning about an absent group has no line to point at).
 */
export function createSourceLocator(parsed: ParsedYaml): SourceLocator {
  const { document, lineCounter } = parsed;
  const position = (node: { range?: [number, number, number] | null } | null | undefined): SourcePosition | null => {
    if (!node?.range) return null;
    const { line, col } = lineCounter.linePos(node.range[0]);
    return { line, column: col };
  };

  return (path, target = 'value') => {
    let node: unknown = document.contents;
    // The whole document is a location only for a problem about the whole document.
    let best = path.length === 0 ? position(node as Node | null) : null;
    for (let i = 0; i < path.length; i++) {
      node = resolveAlias(node, parsed);
      const segment = path[i];
      if (isMap(node)) {
        const pair = node.items.find((item) => isPair(item) && keyText(item.key) === String(segment));
        if (!pair) return best;
        const isLast = i === path.length - 1;
        const keyPosition = position(pair.key as Node);
        if (isLast && target === 'key') return keyPosition ?? best;
        node = pair.value;
        best = position(node as Node | null) ?? keyPosition ?? best;
      } else if (isSeq(node) && typeof segment === 'number') {
        node = node.items[segment];
        const found = position(node as Node | null);
        if (!found) return best;
        best = found;
      } else {
        return best;
      }
    }
    return best;
  };
}

function resolveAlias(node: unknown, parsed: ParsedYaml): unknown {
  return isAlias(node) ? parsed.aliasTargets.get(node) : node;
}

/** A key as the plain value has it: yaml turns an empty key (`? `) into ''. */
function keyText(key: unknown): string | null {
  if (key === null || key === undefined) return '';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a YAML scalar holds a string, number or boolean
  if (isScalar(key)) return key.value === null || key.value === undefined ? '' : String(key.value);
  return null;
}
