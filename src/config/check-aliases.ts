import { isAlias, isCollection, isPair, isScalar, type Alias, type Document } from 'yaml';

/**
 * How many values aliases may add to a file in all: shared defaults merged
 * into thousands of clients stay far below it; a "billion laughs" (aliases
 * of aliases, each level multiplying the last) passes it within a few lines.
 */
export const maxAliasExpansion = 1_000_000;

export interface AliasProblem {
  /** Offset in the text of the alias at fault. */
  offset: number;
  message: string;
}

/**
 * The node each alias stands for, found once: yaml's Alias.resolve scans
 * every anchor and alias before it on each call, which takes minutes for a
 * file of many aliases.
 */
export type AliasTargets = ReadonlyMap<Alias, unknown>;

/**
 * Resolves every alias before the document becomes a plain value
 * (./to-plain-value.ts), where an anchor and its aliases share one value.
 * An alias inside the node it names (`a: &x [*x]`) would make that value
 * contain itself, and aliases of aliases make a value that is small in
 * memory but huge as a tree; every later phase walks it as a tree, and
 * would recurse without end or exhaust memory. As in yaml, an alias names
 * the last anchor of its name before it, so a cycle always has an alias
 * inside the node it names, caught while that node is still open. Sizes
 * count values (scalars, lists, mappings, keys) once every alias is expanded.
 */
export function checkAliases(document: Document): { problems: AliasProblem[]; targets: AliasTargets } {
  const problems: AliasProblem[] = [];
  const targets = new Map<Alias, unknown>();
  const anchors = new Map<string, unknown>();
  const sizes = new Map<unknown, number>();
  const open = new Set<unknown>();
  let added = 0;

  const resolve = (alias: Alias): unknown => {
    const target = anchors.get(alias.source);
    const offset = alias.range?.[0] ?? 0;
    if (target === undefined) problems.push({ offset, message: 'an alias (*name) must name an anchor (&name) set before it' });
    else if (open.has(target)) problems.push({ offset, message: 'an alias (*name) inside the value it names: that value would contain itself without end' });
    else {
      targets.set(alias, target);
      return target;
    }
    return null;
  };

  const walk = (node: unknown): number => {
    if (isAlias(node)) {
      const target = resolve(node);
      if (target === null) return 1;
      const size = sizes.get(target) ?? 1;
      if (added <= maxAliasExpansion) {
        added += size - 1;
        if (added > maxAliasExpansion) problems.push({ offset: node.range?.[0] ?? 0, message: `expanding the aliases (*name) up to here would add more than ${maxAliasExpansion.toLocaleString('en-US')} values to the file, the most idp accepts (aliases of aliases multiply)` });
      }
      return size;
    }
    const anchored = (isScalar(node) || isCollection(node)) && node.anchor ? node : null;
    if (anchored) {
      anchors.set(anchored.anchor!, anchored);
      open.add(anchored);
    }
    let size = 1;
    if (isCollection(node)) {
      for (const item of node.items) {
        size += isPair(item) ? walk(item.key) + walk(item.value) : walk(item);
      }
    }
    if (anchored) {
      open.delete(anchored);
      sizes.set(anchored, size);
    }
    return size;
  };

  walk(document.contents);
  return { problems, targets };
}

