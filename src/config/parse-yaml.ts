import { LineCounter, parseDocument, type Document, type YAMLError } from 'yaml';
import { checkAliases, type AliasTargets } from './check-aliases.js';
import { toPlainValue } from './to-plain-value.js';
import { describeYamlError } from './describe-yaml-error.js';
import type { ConfigProblem } from './problem.js';

export interface ParsedYaml {
  document: Document;
  lineCounter: LineCounter;
  aliasTargets: AliasTargets;
  /** The document as plain objects, arrays and scalars; null for an empty one. */
  value: unknown;
}

/**
 * Phase 1: YAML text → a plain value, and the document that remembers where
 * every node came from. A syntax error stops the load (nothing after it can
 * be trusted) and is reported with its own line and column, as is an alias
 * that cannot be expanded safely (./check-aliases.ts) or a key or merge
 * that has no plain value (./to-plain-value.ts); yaml's warnings (an
 * unknown tag…) are passed on as warnings. No message quotes the text
 * (./describe-yaml-error.ts).
 */
export function parseYaml(
  text: string,
  file: string | null,
): { ok: true; parsed: ParsedYaml; warnings: ConfigProblem[] } | { ok: false; problems: ConfigProblem[] } {
  const lineCounter = new LineCounter();
  // uniqueKeys: a key written twice in one mapping is an error, never "last one wins".
  const document = withPlainProcessEnv(() =>
    parseDocument(text, { lineCounter, uniqueKeys: true, merge: true, prettyErrors: false }),
  );
  const at = (offset: number, severity: ConfigProblem['severity'], message: string): ConfigProblem => {
    // yaml's type allows -1 for "no position" (its prettifyError skips those); the start of the file is the nearest place.
    const { line, col } = lineCounter.linePos(Math.max(offset, 0));
    return { severity, file, line, column: col, path: '', message };
  };
  const fromYaml = (severity: ConfigProblem['severity']) => (error: YAMLError) =>
    at(error.pos[0], severity, describeYamlError(error, severity));
  const warnings = document.warnings.map(fromYaml('warning'));
  if (document.errors.length > 0)
    return { ok: false, problems: [...document.errors.map(fromYaml('error')), ...warnings] };
  const aliases = checkAliases(document);
  if (aliases.problems.length > 0)
    return { ok: false, problems: [...aliases.problems.map((p) => at(p.offset, 'error', p.message)), ...warnings] };
  const plain = toPlainValue(document, aliases.targets);
  if (plain.problems.length > 0)
    return { ok: false, problems: [...plain.problems.map((p) => at(p.offset, 'error', p.message)), ...warnings] };
  return { ok: true, parsed: { document, lineCounter, aliasTargets: aliases.targets, value: plain.value }, warnings };
}

/**
 * yaml's parser reads process.env.LOG_TOKENS once per token, and on Node
 * process.env is a native lookup: about a sixth of the time of parsing a
 * config of 10,000 users. During the synchronous parse a plain copy answers
 * instead; no other code runs before the real one is back.
 */
function withPlainProcessEnv<T>(parse: () => T): T {
  const real = process.env;
  process.env = { ...real };
  try {
    return parse();
  } finally {
    process.env = real;
  }
}
