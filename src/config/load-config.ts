import path from 'node:path';
import { readConfigFile } from './read-config-file.js';
import { decodeConfigText } from './decode-config-text.js';
import { parseYaml } from './parse-yaml.js';
import { interpolateEnv } from './interpolate-env.js';
import { checkShape } from './check-shape.js';
import { checkRules } from './rules/index.js';
import { normalizeConfig } from './normalize-config.js';
import { createSourceLocator, isPlainScalarAt, type LocateTarget, type SourceLocator } from './source-locator.js';
import { formatConfigPath, type ConfigPath } from './config-path.js';
import type { ConfigProblem, LoadResult } from './problem.js';

export interface LoadOptions {
  env: Record<string, string | undefined>;
  cwd: string;
}

/**
 * Reads and loads a config file; `file: null` gives the built-in defaults
 * (the same pipeline on an empty file). A file that cannot be read, or is
 * too large, is one problem without a line; one that is not UTF-8 text is
 * one problem at its first offending byte.
 */
export async function loadConfig(options: LoadOptions & { file: string | null }): Promise<LoadResult> {
  const { file } = options;
  if (file === null) return loadConfigText('', { ...options, file: null });
  const read = await readConfigFile(path.resolve(options.cwd, file));
  if (!read.ok)
    return {
      ok: false,
      problems: [{ severity: 'error', file, line: null, column: null, path: '', message: read.message }],
    };
  const decoded = decodeConfigText(read.bytes);
  if (!decoded.ok)
    return {
      ok: false,
      problems: [{ severity: 'error', file, ...decoded.position, path: '', message: decoded.message }],
    };
  return loadConfigText(decoded.text, options);
}

interface Located {
  severity: ConfigProblem['severity'];
  path: ConfigPath;
  target: LocateTarget;
  message: string;
}

/**
 * The config pipeline on text: parse YAML → interpolate the environment →
 * shape (schema, defaults) → rules → normalize. Every problem of every phase
 * that can run is reported; a problem of the YAML itself stops it early.
 */
export function loadConfigText(text: string, options: LoadOptions & { file: string | null }): LoadResult {
  const { file } = options;
  const parsed = parseYaml(text, file);
  if (!parsed.ok) return { ok: false, problems: inFileOrder(parsed.problems) };
  // An empty file is an empty mapping: every default applies.
  const interpolated = interpolateEnv(parsed.parsed.value ?? {}, options.env, (at) =>
    isPlainScalarAt(parsed.parsed, at),
  );
  const interpolation = interpolated.problems;
  const shape = checkShape(interpolated.value);
  const rules = checkRules(shape.value, shape.problems.length === 0);

  const found: Located[] = [
    ...interpolation.map((p) => ({
      severity: 'error' as const,
      path: p.path,
      target: 'value' as const,
      message: p.message,
    })),
    ...withoutPathsUnder(
      shape.problems.map((p) => ({ severity: 'error' as const, ...p })),
      interpolation,
    ),
    ...withoutPathsUnder(
      rules.map((p) => ({ target: 'value' as const, ...p })),
      [...interpolation, ...shape.problems],
    ),
  ];
  const problems = inFileOrder([...parsed.warnings, ...locateAll(found, file, createSourceLocator(parsed.parsed))]);
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) return { ok: false, problems };
  const absoluteFile = file === null ? null : path.resolve(options.cwd, file);
  const config = normalizeConfig(shape.value, {
    file: absoluteFile,
    baseDir: absoluteFile === null ? options.cwd : path.dirname(absoluteFile),
  });
  return { ok: true, config, warnings: problems };
}

/** Drops problems at or under a path that already has a problem of an earlier phase: they would only repeat it. */
function withoutPathsUnder<T extends { path: ConfigPath }>(
  problems: T[],
  earlier: readonly { path: ConfigPath }[],
): T[] {
  if (earlier.length === 0) return problems;
  const taken = new Set(earlier.map((p) => formatConfigPath(p.path)));
  return problems.filter((problem) => {
    for (let depth = 1; depth <= problem.path.length; depth++) {
      if (taken.has(formatConfigPath(problem.path.slice(0, depth)))) return false;
    }
    return true;
  });
}

/** Adds file, line and column to each problem. */
function locateAll(found: Located[], file: string | null, locate: SourceLocator): ConfigProblem[] {
  return found.map((p): ConfigProblem => {
    // An error always points somewhere: at worst at the document it is in.
    const position = locate(p.path, p.target) ?? (p.severity === 'error' ? locate([]) : null);
    return {
      severity: p.severity,
      file,
      line: position?.line ?? null,
      column: position?.column ?? null,
      path: formatConfigPath(p.path),
      message: p.message,
    };
  });
}

/** Problems as they appear in the file; those without a place last. */
function inFileOrder(problems: ConfigProblem[]): ConfigProblem[] {
  const order = (n: number | null) => n ?? Number.MAX_SAFE_INTEGER;
  return problems.sort((a, b) => order(a.line) - order(b.line) || order(a.column) - order(b.column));
}
