import { describe, expect, it } from 'vitest';
import { problemLines, yaml } from './load-text.js';

// Real YAML, so that a yaml release that rewords its messages shows here: each precise sentence is picked by yaml's wording.
describe('YAML problems in our words, never quoting the text', () => {
  it.each([
    [
      'an unclosed double quote',
      yaml('a: "x'),
      'idp.yaml:2:1: YAML syntax error: a double-quoted string is not closed (its " is missing)',
    ],
    [
      'an unclosed single quote',
      yaml("a: 'x"),
      "idp.yaml:2:1: YAML syntax error: a single-quoted string is not closed (its ' is missing)",
    ],
    [
      'a missing comma',
      yaml('a: [ "x" "y" ]'),
      'idp.yaml:1:10: YAML syntax error: a "," (or ":") is missing between two items of [ ] or { }',
    ],
    [
      'a comment without a space',
      yaml('a: "x"# c'),
      'idp.yaml:1:7: YAML syntax error: a # comment must be separated from the text before it by a space',
    ],
    ['a key without a colon', yaml('a: b', 'c'), 'idp.yaml:2:1: YAML syntax error: a key without a ":" after it'],
    [
      'an unclosed list at the top',
      yaml('[1, 2'),
      'idp.yaml:2:1: YAML syntax error: a [ ] list is not closed by its "]"',
    ],
    [
      'an unclosed mapping at the top',
      yaml('{a: 1'),
      'idp.yaml:2:1: YAML syntax error: a { } mapping is not closed by its "}"',
    ],
    [
      'an unclosed list under a key',
      yaml('a: [1, 2'),
      'idp.yaml:2:1: YAML syntax error: a [ ] list is not closed by its "]", or its lines are not indented more than its key',
    ],
    [
      'an unclosed mapping under a key',
      yaml('a: {b: 1'),
      'idp.yaml:2:1: YAML syntax error: a { } mapping is not closed by its "}", or its lines are not indented more than its key',
    ],
    [
      'keys at different columns',
      yaml('a:', '  b: 1', ' c: 2'),
      'idp.yaml:3:1: YAML syntax error: the items of one mapping or list must start at the same column',
    ],
    [
      'a list item without its dash',
      yaml('- - a', '  b'),
      'idp.yaml:2:1: YAML syntax error: a list item without its "-"',
    ],
    [
      'a tag for another kind of collection (a warning)',
      yaml('a: !!set [1]'),
      'idp.yaml:1:4: warning: YAML: the tag is for another kind of collection (a list or a mapping)',
    ],
    [
      'a block scalar header with text',
      yaml('a: |x', '  y'),
      'idp.yaml:1:5: YAML syntax error: after | or > only an indentation digit and a + or - may follow on that line',
    ],
    [
      'an invalid escape',
      yaml('a: "\\q"'),
      'idp.yaml:1:5: YAML syntax error: not a valid escape sequence in a double-quoted string (write \\\\ for a backslash, or use single quotes)',
    ],
    [
      'a reserved first character',
      yaml('a: @x'),
      'idp.yaml:1:4: YAML syntax error: an unquoted value cannot start with this character (quote the value)',
    ],
    [
      'a tab as indentation',
      yaml('a:', '\tb: 1'),
      'idp.yaml:2:1: YAML syntax error: tabs are not allowed as indentation (use spaces)',
    ],
    ['a duplicate key', yaml('a: 1', 'a: 2'), 'idp.yaml:2:1: duplicate key: a key may appear only once in a mapping'],
    [
      'an unknown tag (a warning)',
      yaml('branding: { name: !x idp }'),
      'idp.yaml:1:19: warning: YAML: an unknown tag (!tag): the value is read as if it had none',
    ],
  ])('%s', (_name, text, expected) => {
    expect(problemLines(text)).toContain(expected);
  });
});
