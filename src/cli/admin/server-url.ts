import type { CliContext } from '../context.js';
import { CliError } from '../output.js';

export interface ServerOptions {
  url?: string;
}

/**
 * The server address as given to --url or $IDP_URL, checked and without a
 * trailing slash (a path prefix such as https://example.com/idp is kept).
 */
export function parseServerUrl(input: string, source: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new CliError(`${source}: "${input}" is not a URL (expected e.g. http://localhost:8080)`, 2);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`${source}: "${input}" must start with http:// or https://`, 2);
  }
  if (url.username || url.password) {
    throw new CliError(`${source}: credentials do not belong in the URL; use --email and the password prompt`, 2);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The server named by --url, else $IDP_URL; undefined when neither is given. */
export function chosenServerUrl(ctx: CliContext, opts: ServerOptions): string | undefined {
  if (opts.url !== undefined) return parseServerUrl(opts.url, '--url');
  if (ctx.env.IDP_URL) return parseServerUrl(ctx.env.IDP_URL, '$IDP_URL');
  return undefined;
}
