import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fillHtmlVariables } from './html-variables.js';

/**
 * What a path of the static directory is: an HTML page, read and with its
 * html_variables filled, or any other file, named by its absolute path for
 * the HTTP layer to stream (@hapi/inert: ETag, 304, ranges).
 */
export type FrontendFile = { contentType: string; body: string } | { contentType: string; file: string };

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * `static` mode: files from a directory. `/login` is login.html (or
 * login/index.html); with spaFallback, a path without an extension that
 * matches nothing gets index.html, as single-page apps expect.
 * Nothing outside the directory is ever read.
 */
export function createStaticFrontend(options: {
  directory: string;
  variables: Readonly<Record<string, string>>;
  /** Serve index.html for unknown app routes (an operator's single-page app; not the built-in UI). */
  spaFallback: boolean;
}) {
  const root = path.resolve(options.directory);

  async function readInside(relative: string): Promise<FrontendFile | null> {
    const file = path.resolve(root, `.${path.posix.sep}${relative}`);
    if (file !== root && !file.startsWith(root + path.sep)) return null;
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    const contentType = contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    if (!contentType.startsWith('text/html')) return { contentType, file };
    return { contentType, body: fillHtmlVariables(await readFile(file, 'utf8'), options.variables) };
  }

  return {
    directory: root,
    async load(pathname: string): Promise<FrontendFile | null> {
      let decoded: string;
      try {
        decoded = decodeURIComponent(pathname);
      } catch {
        return null;
      }
      if (decoded.includes('\0') || decoded.split(/[\\/]/).includes('..')) return null;
      const candidates = decoded.endsWith('/')
        ? [`${decoded}index.html`]
        : [decoded, `${decoded}.html`, `${decoded}/index.html`];
      for (const candidate of candidates) {
        const found = await readInside(candidate);
        if (found) return found;
      }
      return options.spaFallback && path.extname(decoded) === '' ? readInside('index.html') : null;
    },
  };
}
