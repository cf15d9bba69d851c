import { formatConfigPath } from '../config-path.js';
import { error, type RuleProblem } from './config-rule.js';

/**
 * Reports every item whose key was already used by an earlier item of the
 * same list, naming the first one, in one pass over the list. The value is
 * not repeated: it may be an expanded secret, and both lines show it.
 */
export function findDuplicates<T>(
  list: readonly T[],
  listName: string,
  field: keyof T & string,
  options: { caseInsensitive?: boolean } = {},
): RuleProblem[] {
  const firstIndex = new Map<string, number>();
  const problems: RuleProblem[] = [];
  list.forEach((item, index) => {
    const value = item[field];
    if (typeof value !== 'string') return;
    const key = options.caseInsensitive ? value.toLowerCase() : value;
    const first = firstIndex.get(key);
    if (first === undefined) {
      firstIndex.set(key, index);
      return;
    }
    const how = options.caseInsensitive ? ' (compared case-insensitively)' : '';
    problems.push(
      error(
        [listName, index, field],
        `duplicate ${field}${how}: ${formatConfigPath([listName, first])} already uses it`,
      ),
    );
  });
  return problems;
}
