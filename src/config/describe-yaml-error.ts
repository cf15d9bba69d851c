import type { ErrorCode } from 'yaml';

/**
 * Our sentence for one of yaml's errors or warnings. yaml's own messages
 * quote the source (`Invalid escape sequence \q`, `Unresolved tag: !x`, a
 * whole line of binary), which may be a secret, so none of their text is
 * ever shown: the code picks the sentence, and a few of yaml's fixed
 * sentences pick a more precise one for the most common mistakes.
 */
export function describeYamlError(error: { code: ErrorCode; message: string }, severity: 'error' | 'warning'): string {
  const sentence =
    precise.find((p) => p.code === error.code && p.match.test(error.message))?.sentence ?? byCode[error.code];
  const kind = error.code === 'DUPLICATE_KEY' ? 'duplicate key' : severity === 'error' ? 'YAML syntax error' : 'YAML';
  return `${kind}: ${sentence}`;
}

const byCode: Record<ErrorCode, string> = {
  ALIAS_PROPS: 'an alias (*name) cannot have an anchor or a tag',
  BAD_ALIAS: 'an anchor (&name) or alias (*name) needs a name, and one that ends in ":" is ambiguous',
  BAD_COLLECTION_TYPE: 'the tag is for another kind of collection (a list or a mapping)',
  BAD_DIRECTIVE: 'not a valid directive (%YAML or %TAG, before a --- line)',
  BAD_DQ_ESCAPE:
    'not a valid escape sequence in a double-quoted string (write \\\\ for a backslash, or use single quotes)',
  BAD_INDENT:
    'bad indentation: the items of a mapping or list start at one column, and a nested value is indented more than its key',
  BAD_PROP_ORDER: 'an anchor (&name) or tag (!tag) must come after the "-", "?" or ":" indicator',
  BAD_SCALAR_START: 'an unquoted value cannot start with this character (quote the value)',
  BLOCK_AS_IMPLICIT_KEY: 'a nested mapping or list cannot start on the line of its key (start it on the next line)',
  BLOCK_IN_FLOW: 'an indented mapping or list cannot be inside [ ] or { }',
  DUPLICATE_KEY: 'a key may appear only once in a mapping',
  IMPOSSIBLE: 'this cannot be read as YAML',
  KEY_OVER_1024_CHARS: 'a key longer than 1024 characters (or a missing ":")',
  MISSING_CHAR: 'a character is missing here (a closing quote or bracket, a ",", a ":" or a space?)',
  MULTILINE_IMPLICIT_KEY: 'a key must fit on one line (a missing ":" or an unclosed quote?)',
  MULTIPLE_ANCHORS: 'a value can have only one anchor (&name)',
  MULTIPLE_DOCS: 'the file must hold one document, but a second one starts here (after ---)',
  MULTIPLE_TAGS: 'a value can have only one tag (!tag)',
  NON_STRING_KEY: 'a key must be a string',
  RESOURCE_EXHAUSTION: 'nested too deeply to be read',
  TAB_AS_INDENT: 'tabs are not allowed as indentation (use spaces)',
  TAG_RESOLVE_FAILED: 'the value does not match its tag (!tag), or the tag is unknown and ignored',
  UNEXPECTED_TOKEN: 'unexpected text here (a missing quote, ":" or "-"?)',
};

const precise: { code: ErrorCode; match: RegExp; sentence: string }[] = [
  {
    code: 'MISSING_CHAR',
    match: /^Missing closing "quote/,
    sentence: 'a double-quoted string is not closed (its " is missing)',
  },
  {
    code: 'MISSING_CHAR',
    match: /^Missing closing 'quote/,
    sentence: "a single-quoted string is not closed (its ' is missing)",
  },
  {
    code: 'MISSING_CHAR',
    match: /^Missing , (or : )?between/,
    sentence: 'a "," (or ":") is missing between two items of [ ] or { }',
  },
  {
    code: 'MISSING_CHAR',
    match: /^Comments must be separated/,
    sentence: 'a # comment must be separated from the text before it by a space',
  },
  {
    code: 'MISSING_CHAR',
    match: /^Implicit map keys need to be followed by map values/,
    sentence: 'a key without a ":" after it',
  },
  { code: 'MISSING_CHAR', match: /^Sequence item without - indicator/, sentence: 'a list item without its "-"' },
  { code: 'MISSING_CHAR', match: /end with a \]$/, sentence: 'a [ ] list is not closed by its "]"' },
  { code: 'MISSING_CHAR', match: /end with a \}$/, sentence: 'a { } mapping is not closed by its "}"' },
  {
    code: 'BAD_INDENT',
    match: /end with a \]$/,
    sentence: 'a [ ] list is not closed by its "]", or its lines are not indented more than its key',
  },
  {
    code: 'BAD_INDENT',
    match: /end with a \}$/,
    sentence: 'a { } mapping is not closed by its "}", or its lines are not indented more than its key',
  },
  {
    code: 'BAD_INDENT',
    match: /^All \w+ items must start at the same column/,
    sentence: 'the items of one mapping or list must start at the same column',
  },
  {
    code: 'UNEXPECTED_TOKEN',
    match: /^Block scalar header includes extra characters/,
    sentence: 'after | or > only an indentation digit and a + or - may follow on that line',
  },
  {
    code: 'TAG_RESOLVE_FAILED',
    match: /^Unresolved tag/,
    sentence: 'an unknown tag (!tag): the value is read as if it had none',
  },
];
