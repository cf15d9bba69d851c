import { describe, expect, it } from 'vitest';
import { latestTick, parseCron } from '../../src/scheduler/latest-tick.js';

const at = (iso: string) => Date.parse(iso);

describe('latestTick', () => {
  it.each([
    [
      'every second, one tick due',
      '* * * * * *',
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:01.500Z',
      '2026-01-01T00:00:01.000Z',
    ],
    [
      'every second, several passed: the latest',
      '* * * * * *',
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:09.999Z',
      '2026-01-01T00:00:09.000Z',
    ],
    ['every second, none yet', '* * * * * *', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.999Z', null],
    [
      'tick exactly at now counts',
      '*/5 * * * * *',
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:05.000Z',
      '2026-01-01T00:00:05.000Z',
    ],
    [
      'the recorded tick itself is not due again',
      '*/5 * * * * *',
      '2026-01-01T00:00:05.000Z',
      '2026-01-01T00:00:09.000Z',
      null,
    ],
    ['daily at 02:00 UTC, before it', '0 2 * * *', '2026-01-01T03:00:00.000Z', '2026-01-02T01:59:59.000Z', null],
    [
      'daily at 02:00 UTC, after it',
      '0 2 * * *',
      '2026-01-01T03:00:00.000Z',
      '2026-01-02T02:00:30.000Z',
      '2026-01-02T02:00:00.000Z',
    ],
    [
      'a week of missed daily ticks: run once, for the latest',
      '0 2 * * *',
      '2026-01-01T03:00:00.000Z',
      '2026-01-08T12:00:00.000Z',
      '2026-01-08T02:00:00.000Z',
    ],
    [
      'a day of missed every-second ticks',
      '* * * * * *',
      '2026-01-01T00:00:00.000Z',
      '2026-01-02T00:00:00.400Z',
      '2026-01-02T00:00:00.000Z',
    ],
  ])('%s', (_name, expression, after, now, expected) => {
    expect(latestTick(parseCron(expression), at(after), at(now))).toBe(expected === null ? null : at(expected));
  });

  it('rejects an invalid expression', () => {
    expect(() => parseCron('61 * * * *')).toThrow();
  });
});
