import { Writable } from 'node:stream';
import { pino, stdTimeFunctions, type Logger } from 'pino';
import type { LoggingConfig } from './config/types.js';

/**
 * The process logger (pino). `json` writes one JSON object per line;
 * `pretty` writes `time LEVEL message key=value` for a terminal; without a
 * configured format, a terminal gets pretty and anything else (a file, a
 * pipe, a log collector) json. Times are ISO 8601 in UTC in both. Never
 * pass secrets, cookies or passwords to it: the redact list is a second
 * line of defence, not a licence.
 */
export function createLogger(logging: LoggingConfig, destination: NodeJS.WritableStream = process.stdout): Logger {
  const options = {
    level: logging.level,
    base: undefined,
    timestamp: stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'password',
        '*.password',
        'cookie',
        '*.cookie',
        'headers.cookie',
        'headers.authorization',
        'secret',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
  const pretty =
    logging.format === 'pretty' || (logging.format === null && (destination as { isTTY?: boolean }).isTTY === true);
  return pino(options, pretty ? prettyStream(destination) : destination);
}

const levelNames: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

function prettyStream(destination: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      const { time, level, msg, ...rest } = JSON.parse(chunk.toString()) as Record<string, unknown>;
      const fields = Object.entries(rest)
        .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(' ');
      destination.write(
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- pino writes msg as a string
        `${String(time)} ${levelNames[Number(level)] ?? level} ${String(msg ?? '')}${fields ? ` ${fields}` : ''}\n`,
      );
      done();
    },
  });
}
