import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface ConfigFileWatcher {
  close(): void;
}

/**
 * `idp serve --watch`: calls `onChange` once the config file's contents
 * have changed and then stayed still for `debounceMs` (an editor saving in
 * several writes, a `git pull`). It watches the file's directory, not the
 * file: editors replace the file by renaming a new one into place, and a
 * Kubernetes ConfigMap swaps a symlinked directory, both of which a watch
 * on the file itself loses. Any event in the directory leads to a read of
 * the file, and only different contents (or the file appearing or
 * disappearing) count as a change, so unrelated files are ignored.
 */
export async function watchConfigFile(options: {
  file: string;
  onChange: () => void;
  onError: (error: Error) => void;
  debounceMs?: number;
}): Promise<ConfigFileWatcher> {
  const debounceMs = options.debounceMs ?? 300;
  let seen = await fingerprint(options.file);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const settle = async () => {
    const now = await fingerprint(options.file);
    if (closed || now === seen) return;
    seen = now;
    options.onChange();
  };
  const watcher: FSWatcher = watch(path.dirname(options.file), () => {
    clearTimeout(timer);
    timer = setTimeout(() => void settle().catch(options.onError), debounceMs);
  });
  watcher.on('error', options.onError);
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      watcher.close();
    },
  };
}

/** A digest of the file's bytes, or 'missing'. */
async function fingerprint(file: string): Promise<string> {
  const bytes = await readFile(file).catch(() => null);
  return bytes === null ? 'missing' : createHash('sha256').update(bytes).digest('hex');
}
