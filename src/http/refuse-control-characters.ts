import type { Request, ResponseToolkit } from '@hapi/hapi';
import { findControlCharacter } from './find-control-character.js';
import { invalidInput } from './invalid-input.js';

const sources = ['params', 'query', 'payload'] as const;

/**
 * A server-wide onPostAuth step, so that no route can forget it: after
 * parsing and authentication, BEFORE joi, a path param, query value or body
 * string (at any depth, keys included) with a control character
 * (./find-control-character.ts) is invalid input, answered like a joi
 * failure on that route. Before joi, because joi converts: `trim()` on an
 * e-mail would silently drop a vertical tab or form feed at its ends. Only the first such string is reported, and
 * never echoed back.
 */
export function refuseControlCharacters(request: Request, h: ResponseToolkit) {
  for (const source of sources) {
    const found = findControlCharacter(request[source]);
    if (!found) continue;
    const path = [source, ...found.path].join('.');
    const name = found.path.length > 0 ? found.path.join('.') : source;
    const message = found.inKey
      ? `the keys of "${name}" must not contain control characters`
      : `"${name}" must not contain control characters`;
    throw invalidInput(request, [{ path, message }]);
  }
  return h.continue;
}
