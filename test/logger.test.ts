import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';

/** src/logger.ts: the format follows the stream when not configured; ISO 8601 times either way; secrets redacted. */
function sink(isTTY: boolean) {
  const lines: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    }),
    { isTTY },
  );
  return { stream, lines };
}

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('createLogger', () => {
  it('writes pretty lines to a terminal when logging.format is not set', () => {
    const { stream, lines } = sink(true);
    createLogger({ level: 'info', format: null }, stream).info({ path: '/api/health', status: 200 }, 'request');
    const [time, ...rest] = lines[0].split(' ');
    expect(time).toMatch(iso);
    expect(rest.join(' ')).toBe('INFO request path=/api/health status=200');
  });

  it('writes JSON lines elsewhere when logging.format is not set, with an ISO 8601 time', () => {
    const { stream, lines } = sink(false);
    createLogger({ level: 'info', format: null }, stream).warn({ n: 1 }, 'careful');
    const line = JSON.parse(lines[0]);
    expect(line).toEqual({ level: 40, time: expect.stringMatching(iso), n: 1, msg: 'careful' });
  });

  it('follows a configured format whatever the stream, and never writes a password or secret', () => {
    const json = sink(true);
    createLogger({ level: 'info', format: 'json' }, json.stream).info(
      { password: 'hunter2', nested: { secret: 's3cret' } },
      'x',
    );
    expect(JSON.parse(json.lines[0])).toMatchObject({ password: '[redacted]', nested: { secret: '[redacted]' } });
    const pretty = sink(false);
    createLogger({ level: 'info', format: 'pretty' }, pretty.stream).info('plain');
    expect(pretty.lines[0]).toMatch(/^\S+ INFO plain$/);
  });
});
