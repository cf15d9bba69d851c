import { isAlias, isCollection, isPair, isScalar, type Alias, type Document } from 'yaml';

/**
 * How many values aliases may add to a file in all: shared defaults merged
 * into thousands of clients stay far below it; a "billion laughs" (aliases
 * of aliases, each level multiplying the last) passes it within a few lines.
 */
export const maxAliasExpansion = 1_000_000;

/**
 * How deep values may nest once aliases are expanded: far deeper than any
 * config, shallow enough for the recursion of every later phase. Written
 * out, yaml stops at a few hundred levels; a chain of aliases to nested
 * lists would reach tens of thousands within the expansion limit.
 */
export const maxNesting = 1_000;

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

/** A node as the plain value will have it, every alias expanded: how many values, how many levels. */
interface Extent {
  size: number;
  height: number;
}

/**
 * Resolves every alias before the document becomes a plain value
 * (./to-plain-value.ts), where an anchor and its aliases share one value.
 * An alias inside the node it names (`a: &x [*x]`) would make that value
 * contain itself, and aliases of aliases make a value that is small in
 * memory but huge or deep as a tree; every later phase walks it as a tree,
 * and would recurse without end, overflow the stack or exhaust memory. As
 * in yaml, an alias names the last anchor of its name before it, so a
 * cycle always has an alias inside the node it names, caught while that
 * node is still open. Sizes count values (scalars, lists, mappings, keys).
 */
export function checkAliases(document: Document): { problems: AliasProblem[]; targets: AliasTargets } {
  const problems: AliasProblem[] = [];
  const targets = new Map<Alias, unknown>();
  const anchors = new Map<string, unknown>();
  const extents = new Map<unknown, Extent>();
  const open = new Set<unknown>();
  let added = 0;
  let tooDeep = false;
  const leaf: Extent = { size: 1, height: 1 };

  const resolve = (alias: Alias): unknown => {
    const target = anchors.get(alias.source);
    const offset = alias.range?.[0] ?? 0;
    if (target === undefined)
      problems.push({ offset, message: 'an alias (*name) must name an anchor (&name) set before it' });
    else if (open.has(target))
      problems.push({
        offset,
        message: 'an alias (*name) inside the value it names: that value would contain itself without end',
      });
    else {
      targets.set(alias, target);
      return target;
    }
    return null;
  };

  /** The first place past maxNesting is the problem; deeper places would only repeat it. */
  const withinDepth = (node: { range?: [number, number, number] | null }, depth: number): boolean => {
    if (depth <= maxNesting) return true;
    if (!tooDeep)
      problems.push({
        offset: node.range?.[0] ?? 0,
        message: `values nested more than ${maxNesting.toLocaleString('en-US')} levels deep (aliases expanded), the most idp accepts`,
      });
    tooDeep = true;
    return false;
  };

  const walk = (node: unknown, level: number): Extent => {
    if (isAlias(node)) {
      const target = resolve(node);
      if (target === null) return leaf;
      const extent = extents.get(target) ?? leaf;
      withinDepth(node, level - 1 + extent.height);
      if (added <= maxAliasExpansion) {
        added += extent.size - 1;
        if (added > maxAliasExpansion)
          problems.push({
            offset: node.range?.[0] ?? 0,
            message: `expanding the aliases (*name) up to here would add more than ${maxAliasExpansion.toLocaleString('en-US')} values to the file, the most idp accepts (aliases of aliases multiply)`,
          });
      }
      return extent;
    }
    if (!isScalar(node) && !isCollection(node)) return leaf;
    if (!withinDepth(node, level)) return leaf;
    const anchored = node.anchor ? node : null;
    if (node.anchor) {
      anchors.set(node.anchor, node);
      open.add(anchored);
    }
    const extent = { size: 1, height: 1 };
    const add = (child: Extent) => {
      extent.size += child.size;
      extent.height = Math.max(extent.height, child.height + 1);
    };
    if (isCollection(node)) {
      for (const item of node.items) {
        if (!isPair(item)) add(walk(item, level + 1));
        else {
          add(walk(item.key, level + 1));
          add(walk(item.value, level + 1));
        }
      }
    }
    if (anchored) {
      open.delete(anchored);
      extents.set(anchored, extent);
    }
    return extent;
  };

  walk(document.contents, 1);
  return { problems, targets };
}
