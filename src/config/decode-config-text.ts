import type { SourcePosition } from './source-locator.js';

/**
 * The bytes of a config file as text: UTF-8, as YAML 1.2 files are in
 * practice, without a NUL byte. Binary data or another encoding is one
 * problem at the first offending byte; the bytes themselves are never
 * quoted (yaml's errors would echo them, all of them).
 */
export function decodeConfigText(
  bytes: Uint8Array,
): { ok: true; text: string } | { ok: false; message: string; position: SourcePosition } {
  // Up to a NUL byte only: whichever comes first, a malformed sequence or the NUL, is the problem.
  const nul = bytes.indexOf(0);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(nul === -1 ? bytes : bytes.subarray(0, nul));
  } catch {
    // fatal decoding says that, not where: find the byte for the position.
    const prefix = new TextDecoder('utf-8').decode(bytes.subarray(0, firstMalformedSequence(bytes)));
    return {
      ok: false,
      message: 'not UTF-8 text: a config file is YAML saved as UTF-8 (is this a binary file, or another encoding?)',
      position: endOf(prefix),
    };
  }
  if (nul !== -1)
    return {
      ok: false,
      message: 'contains a NUL byte: a config file is YAML text (is this a binary file?)',
      position: endOf(text),
    };
  return { ok: true, text };
}

/** Where the character after `prefix` stands: 1-based line and column, columns in UTF-16 units as yaml counts them. */
function endOf(prefix: string): SourcePosition {
  let line = 1;
  for (let at = prefix.indexOf('\n'); at !== -1; at = prefix.indexOf('\n', at + 1)) line++;
  return { line, column: prefix.length - prefix.lastIndexOf('\n') };
}

/**
 * The offset of the first ill-formed sequence, by the decoder of the WHATWG
 * Encoding Standard §9.1.1 (the one TextDecoder runs), so that both agree on
 * what is malformed: no overlong forms, no surrogates, nothing past U+10FFFF.
 */
function firstMalformedSequence(bytes: Uint8Array): number {
  let start = 0;
  let needed = 0;
  let lower = 0x80;
  let upper = 0xbf;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (needed === 0) {
      start = i;
      if (byte <= 0x7f) continue;
      if (byte >= 0xc2 && byte <= 0xdf) needed = 1;
      else if (byte >= 0xe0 && byte <= 0xef) {
        if (byte === 0xe0) lower = 0xa0;
        if (byte === 0xed) upper = 0x9f;
        needed = 2;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        if (byte === 0xf0) lower = 0x90;
        if (byte === 0xf4) upper = 0x8f;
        needed = 3;
      } else return i;
      continue;
    }
    if (byte < lower || byte > upper) return start;
    lower = 0x80;
    upper = 0xbf;
    needed--;
  }
  return needed === 0 ? bytes.length : start;
}
