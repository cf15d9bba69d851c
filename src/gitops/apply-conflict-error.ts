/**
 * The config cannot be applied to this database: a config object collides
 * with one the database manages (DESIGN.md 5). Thrown before anything is
 * written; `problems` holds one line per collision, naming both sides.
 */
export class ApplyConflictError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ApplyConflictError';
  }
}
