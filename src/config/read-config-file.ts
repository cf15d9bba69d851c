import { open } from 'node:fs/promises';

/**
 * Far above any real config (10,000 users and 1,000 clients are 2 MiB); a
 * larger file is a mistake or an attack. 16 MiB of users parse in some 15 s
 * and 1 GB; 50 MiB took 1.8 GB.
 */
export const maxConfigFileBytes = 16 * 1024 * 1024;

const chunkBytes = 1024 * 1024;

/**
 * The bytes of a config file, at most maxConfigFileBytes of them. The size
 * is checked before reading, and the read stops past the limit too: a file
 * may grow in between, and a pipe or a device (`-c <(…)`, `/dev/zero`) has
 * no size to check.
 */
export async function readConfigFile(
  file: string,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; message: string }> {
  try {
    const handle = await open(file, 'r');
    try {
      const stats = await handle.stat();
      if (stats.size > maxConfigFileBytes) return { ok: false, message: tooLarge };
      const chunks: Buffer[] = [];
      let total = 0;
      // A regular file in one read; the byte past its size notices that it grew.
      let want = stats.isFile() ? stats.size + 1 : chunkBytes;
      for (;;) {
        const buffer = Buffer.allocUnsafe(Math.min(want, maxConfigFileBytes + 1 - total));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) return { ok: true, bytes: Buffer.concat(chunks, total) };
        total += bytesRead;
        if (total > maxConfigFileBytes) return { ok: false, message: tooLarge };
        chunks.push(buffer.subarray(0, bytesRead));
        want = chunkBytes;
      }
    } finally {
      await handle.close();
    }
  } catch (cause) {
    return { ok: false, message: `cannot read the config file: ${describeReadError(cause)}` };
  }
}

const tooLarge = `the config file is larger than ${maxConfigFileBytes / 1024 / 1024} MiB, the most idp reads`;

function describeReadError(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory, not a file';
  return (cause as Error).message;
}
