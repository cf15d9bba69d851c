import type { ErrorObject } from 'ajv/dist/2020.js';

interface Shape {
  type?: unknown;
  properties?: Record<string, unknown>;
}

/**
 * ajv reports a value that fails a `oneOf` with the errors of every shape
 * it tried, then "must match exactly one schema in oneOf": for an upstream
 * rule with a typo that is half a dozen lines, most of them about the shape
 * the operator did not mean. This keeps what helps:
 * - when the value's keys point at one shape (it has a key only that shape
 *   has, more of them than of any other), that shape's errors alone, as if
 *   it were the only one;
 * - otherwise the oneOf error alone, which describe-schema-error.ts renders
 *   as the list of accepted shapes.
 * Errors of verbose ajv (`schema`, `data`) are expected.
 */
export function pickOneOfBranch(errors: ErrorObject[]): ErrorObject[] {
  let kept = errors;
  for (const oneOf of errors.filter((error) => error.keyword === 'oneOf')) {
    const shapes = oneOf.schema as Shape[];
    const chosen = closestShape(shapes, oneOf.data);
    const prefix = `${oneOf.schemaPath}/`;
    kept = kept.filter((error) => {
      if (error === oneOf) return chosen === null;
      const inside =
        error.schemaPath.startsWith(prefix) &&
        (error.instancePath === oneOf.instancePath || error.instancePath.startsWith(`${oneOf.instancePath}/`));
      if (!inside) return true;
      return chosen !== null && error.schemaPath.startsWith(`${prefix}${chosen}/`);
    });
  }
  return kept;
}

/** The index of the shape the value's keys belong to, or null when no one shape stands out. */
function closestShape(shapes: Shape[], value: unknown): number | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const keysOf = (shape: Shape) => Object.keys(shape.properties ?? {});
  const scores = shapes.map((shape, index) => {
    const others = new Set(shapes.flatMap((other, at) => (at === index ? [] : keysOf(other))));
    return keysOf(shape).filter((key) => !others.has(key) && key in value).length;
  });
  const best = Math.max(...scores);
  if (best === 0 || scores.filter((score) => score === best).length > 1) return null;
  return scores.indexOf(best);
}
