import { BlockList } from 'node:net';
import type { Config } from './types.js';

/**
 * What a reload may change in a running server (docs/configuration.md,
 * "Reload"). The services hold the one runtime Config object and read its
 * fields when they need them, so a reload assigns the new values INTO that
 * object (its groups and lists keep their identity) and every reader sees
 * them at its next property read: no lookup or allocation on the hot path.
 *
 * The fields below are read once, at start (the listen socket, the database
 * pool, the cookie settings, the keys' algorithm, the log stream, the
 * scheduler, the mounted routes and front end, the mail transport): a reload
 * keeps their running values and reports that they wait for a restart.
 */
const restartOnly: { name: string; path: string[] }[] = [
  { name: 'server.base_url', path: ['server', 'baseUrl'] },
  { name: 'server.base_url', path: ['server', 'baseUrlDerived'] },
  { name: 'server.host', path: ['server', 'host'] },
  { name: 'server.port', path: ['server', 'port'] },
  { name: 'database', path: ['database'] },
  { name: 'security.secret', path: ['security', 'secret'] },
  { name: 'security.session_ttl_seconds', path: ['security', 'sessionTtlSeconds'] },
  { name: 'tokens.signing_alg', path: ['tokens', 'signingAlg'] },
  { name: 'logging.format', path: ['logging', 'format'] },
  { name: 'email', path: ['email'] },
  { name: 'metrics', path: ['metrics'] },
  { name: 'scheduler', path: ['scheduler'] },
  { name: 'cleanup', path: ['cleanup'] },
  { name: 'openapi', path: ['openapi'] },
  { name: 'frontend', path: ['frontend'] },
  { name: 'forward_auth', path: ['forwardAuth'] },
];

/** The groups apply writes to the database; the apply plan, not this comparison, says what changed in them. */
const appliedGroups = new Set<keyof Config>(['users', 'clients', 'terms', 'identityProviders', 'file']);

/** File names of the runtime groups, for log lines. */
const groupNames: Partial<Record<keyof Config, string>> = {
  accountDeletion: 'account_deletion',
  identityProviders: 'identity_providers',
};

export interface ConfigComparison {
  /** The new config with the running values of the restart-only fields: what a reload applies and swaps in. */
  effective: Config;
  /** Groups (or fields) whose new values take effect now, e.g. `branding`, `security.login_rate_limit`. */
  live: string[];
  /** Fields that changed in the file but keep their running value until a restart. */
  restart: string[];
}

/** Compares a freshly loaded config with the running one; `next` becomes `effective` (it is the caller's to give). */
export function compareConfigs(running: Config, next: Config): ConfigComparison {
  const effective = next;
  const restart = new Set<string>();
  for (const { name, path } of restartOnly) {
    for (const changed of changedFields(name, valueAt(running, path), valueAt(next, path))) restart.add(changed);
    setAt(effective, path, valueAt(running, path));
  }
  const live: string[] = [];
  for (const key of Object.keys(effective) as (keyof Config)[]) {
    if (appliedGroups.has(key)) continue;
    const before = running[key] as unknown;
    const after = effective[key] as unknown;
    if (same(before, after)) continue;
    live.push(...changedFields(groupNames[key] ?? key, before, after));
  }
  return { effective, live, restart: [...restart] };
}

/** `name` when the values differ; for two groups, the changed fields one level down (security.login_rate_limit). */
function changedFields(name: string, before: unknown, after: unknown): string[] {
  if (same(before, after)) return [];
  if (!isPlainObject(before) || !isPlainObject(after)) return [name];
  return Object.keys(after)
    .filter((field) => !same(before[field], after[field]))
    .map((field) => `${name}.${snakeCase(field)}`);
}

/**
 * Assigns `effective` (from compareConfigs) into the running config in
 * place. Synchronous, so no request sees half of it.
 */
export function swapConfig(running: Config, effective: Config): void {
  assignInPlace(running as unknown as Record<string, unknown>, effective as unknown as Record<string, unknown>);
}

function assignInPlace(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    // A restart-only value is the running one itself: nothing to assign.
    if (current === value) continue;
    if (isPlainObject(current) && isPlainObject(value)) assignInPlace(current, value);
    else if (Array.isArray(current) && Array.isArray(value)) {
      // Element by element: a spread of 100,000 users would overflow the call stack.
      current.length = 0;
      for (const item of value) current.push(item);
    } else target[key] = value;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function valueAt(config: Config, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], config);
}

function setAt(config: Config, path: string[], value: unknown): void {
  const parent = valueAt(config, path.slice(0, -1)) as Record<string, unknown>;
  parent[path[path.length - 1]] = value;
}

/** Plain data compared by value; a trusted-proxy BlockList by its rules. */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a, comparable) === JSON.stringify(b, comparable);
}

function comparable(_key: string, value: unknown): unknown {
  return value instanceof BlockList ? value.rules : value;
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
