import { describe, expect, it } from 'vitest';
import { decodeConfigText } from '../../src/config/decode-config-text.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));
const notUtf8 = 'not UTF-8 text: a config file is YAML saved as UTF-8 (is this a binary file, or another encoding?)';
const nul = 'contains a NUL byte: a config file is YAML text (is this a binary file?)';

describe('decodeConfigText', () => {
  it.each([
    ['a PNG header', bytes([0x89], 'PNG\r\n', [0x1a, 0x0a, 0, 0, 0, 0x0d]), notUtf8, 1, 1],
    ['a NUL byte on line 3, after multibyte characters', bytes('a: 1\nb: 2\nc: "é€😀', [0], '"\n'), nul, 3, 9],
    ['Latin-1 é on line 2', bytes('server:\n  host: caf', [0xe9], '\n'), notUtf8, 2, 12],
    ['UTF-16 with its byte order mark', Buffer.from('\ufeffserver: {}\n', 'utf16le'), notUtf8, 1, 1],
    ['an overlong encoding of "/"', bytes('a: ', [0xc0, 0xaf]), notUtf8, 1, 4],
    ['an encoded surrogate', bytes('a: x', [0xed, 0xa0, 0x80]), notUtf8, 1, 5],
    ['a code point past U+10FFFF', bytes('a: ', [0xf4, 0x90, 0x80, 0x80]), notUtf8, 1, 4],
    ['a sequence cut short by the next character', bytes('a: ', [0xe2, 0x82], 'b'), notUtf8, 1, 4],
    ['a sequence cut short by the end of the file', bytes('a: b\n€', [0xe2, 0x82]), notUtf8, 2, 2],
    ['a lone continuation byte', bytes('€', [0x80]), notUtf8, 1, 2],
  ])('%s: one problem at the first offending byte', (_name, input, message, line, column) => {
    expect(decodeConfigText(input)).toEqual({ ok: false, message, position: { line, column } });
  });

  it('decodes UTF-8, dropping a byte order mark', () => {
    expect(decodeConfigText(bytes([0xef, 0xbb, 0xbf], 'branding: { name: "Zürich 😀" }\n'))).toEqual({
      ok: true,
      text: 'branding: { name: "Zürich 😀" }\n',
    });
  });

  it('finds a malformed byte deep in a large file without quoting it', () => {
    const large = bytes('a: "x"\n'.repeat(100_000), [0xff], 'SECRET-MARKER');
    const result = decodeConfigText(large);
    expect(result).toEqual({ ok: false, message: notUtf8, position: { line: 100_001, column: 1 } });
  });
});
