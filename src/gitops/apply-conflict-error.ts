/** One collision: where it is in the config (`['users', 3]`) and what it collides with. */
export interface ApplyConflict {
  path: (string | number)[];
  message: string;
}

/**
 * The config cannot be applied to this database: a config object collides
 * with one the database manages (docs/gitops.md, "Apply semantics"). Thrown before anything is
 * written; `conflicts` holds every collision, naming both sides.
 */
export class ApplyConflictError extends Error {
  constructor(readonly conflicts: ApplyConflict[]) {
    super(conflicts.map((c) => `${formatPath(c.path)}: ${c.message}`).join('\n'));
    this.name = 'ApplyConflictError';
  }

  /** One line per collision: `users[3]: e-mail "…" is already used by database-managed user "…" <…>`. */
  get problems(): string[] {
    return this.conflicts.map((c) => `${formatPath(c.path)}: ${c.message}`);
  }
}

function formatPath(path: (string | number)[]): string {
  return path
    .map((segment, i) => (typeof segment === 'number' ? `[${segment}]` : i === 0 ? segment : `.${segment}`))
    .join('');
}
