/**
 * registration.allowed_email_patterns (docs/configuration.md, registration): `*` matches any run of
 * characters (none included), everything else itself, compared
 * case-insensitively against the whole address. No pattern means anyone.
 */
export function isEmailAllowed(email: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  const address = email.toLowerCase();
  return patterns.some((pattern) => wildcard(pattern.toLowerCase()).test(address));
}

function wildcard(pattern: string): RegExp {
  const literal = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('.*')}$`, 's');
}
