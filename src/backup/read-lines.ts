import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { BackupError } from './backup-error.js';

/**
 * The lines of a gzip'd file with their numbers (from 1), streamed. A file
 * that cannot be read or decompressed (truncated, damaged) fails with the
 * number of the line being read when it broke.
 */
export async function* readLines(file: string): AsyncGenerator<{ number: number; text: string }> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let number = 0;
  // pipeline destroys the gunzip stream with the first error of either, which ends the loop below with it.
  const source = pipeline(createReadStream(file), createGunzip(), () => {}) as AsyncIterable<Buffer>;
  try {
    for await (const chunk of source) {
      const parts = (pending + decoder.write(chunk)).split('\n');
      pending = parts.pop() as string;
      for (const text of parts) yield { number: ++number, text };
    }
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
      throw new BackupError(`cannot open the file: ${message}`);
    const cause = code === 'Z_BUF_ERROR' ? 'the file ends in the middle of its compressed data (truncated?)' : message;
    throw new BackupError(`line ${number + 1}: cannot decompress: ${cause}`);
  }
  pending += decoder.end();
  if (pending !== '') yield { number: number + 1, text: pending };
}
