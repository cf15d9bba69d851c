import { LineCounter, parseDocument, type Document } from 'yaml';
import type { ConfigProblem } from './problem.js';

export interface ParsedYaml {
  document: Document;
  lineCounter: LineCounter;
}

/**
 * Phase 1: YAML text → a document that remembers where every node came from.
 * A syntax error stops the load (nothing after it can be trusted) and is
 * reported with its own line and column; yaml's warnings (an unknown tag…)
 * are passed on as warnings.
 */
export function parseYaml(text: string, file: string | null): { ok: true; parsed: ParsedYaml; warnings: ConfigProblem[] } | { ok: false; problems: ConfigProblem[] } {
  const lineCounter = new LineCounter();
  // uniqueKeys: a key written twice in one mapping is an error, never "last one wins".
  const document = withPlainProcessEnv(() => parseDocument(text, { lineCounter, uniqueKeys: true, merge: true, prettyErrors: true }));
  const toProblem = (severity: ConfigProblem['severity']) => (error: { message: string; code: string; linePos?: [{ line: number; col: number }, ...unknown[]] }): ConfigProblem => ({
    severity,
    file,
    line: error.linePos?.[0].line ?? null,
    column: error.linePos?.[0].col ?? null,
    path: '',
    message: describeYamlError(error.code, error.message),
  });
  const warnings = document.warnings.map(toProblem('warning'));
  if (document.errors.length > 0) return { ok: false, problems: [...document.errors.map(toProblem('error')), ...warnings] };
  return { ok: true, parsed: { document, lineCounter }, warnings };
}

/** yaml's pretty messages repeat the position and quote the source over several lines; keep the sentence. */
function describeYamlError(code: string, message: string): string {
  const sentence = message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  if (code === 'DUPLICATE_KEY') return 'duplicate key: a key may appear only once in a mapping';
  if (code === 'MULTIPLE_DOCS') return 'YAML syntax error: the file must hold one document, but a second one starts here (after ---)';
  return `YAML syntax error: ${sentence}`;
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
