/**
 * return_to is always a same-origin relative path (docs/oidc.md): a single
 * leading `/`, not `//` or `/\` (which browsers read as another host), no
 * scheme, no control characters. Anything else is refused, never followed:
 * this is what keeps /login and /consent from being open redirects.
 */
/** The longest return_to accepted: an authorization request must fit in it to go through the pages. */
export const maxReturnToLength = 8192;

export function isSafeReturnTo(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxReturnToLength) return false;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return false;
  // URL parsers drop tabs and newlines, so "/\t/evil.example" would become "//evil.example".
  if (/[\u0000-\u001f\u007f]/.test(value)) return false;
  const base = 'http://return-to.invalid';
  try {
    return new URL(value, base).origin === base;
  } catch {
    return false;
  }
}
