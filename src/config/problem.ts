import type { Config } from './types.js';

/**
 * One thing wrong (or worth a warning) in a config file, located by file,
 * line, column and config path (`clients[2].redirect_uris[0]`). Every phase
 * of the loader reports problems in this one shape, and every surface (CLI
 * text, JSON, GitHub annotations) renders it.
 */
export interface ConfigProblem {
  severity: 'error' | 'warning';
  file: string | null;
  /** 1-based; null when the problem has no place in the file (an unreadable or too large file, a missing group). */
  line: number | null;
  column: number | null;
  /** The config path, '' for the whole file. */
  path: string;
  message: string;
}

export type LoadResult =
  { ok: true; config: Config; warnings: ConfigProblem[] } | { ok: false; problems: ConfigProblem[] };

/** `idp.yaml:12:5: clients[2].redirect_uris[0]: must be an absolute URL`, always one line. */
export function formatProblem(problem: ConfigProblem): string {
  const place = [problem.file ?? '<defaults>', problem.line, problem.column].filter((part) => part !== null).join(':');
  const prefix = problem.severity === 'warning' ? 'warning: ' : '';
  const path = problem.path === '' ? '' : `${problem.path}: `;
  return `${place}: ${prefix}${path}${oneLine(problem.message)}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
