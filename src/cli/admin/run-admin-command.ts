import type { CliContext } from '../context.js';
import { AdminApiError } from './admin-api-error.js';

/**
 * Runs an admin subcommand and renders an API error as the one line
 * docs/cli.md asks for, `CODE: message`, with exit code 1. Other failures
 * (CliError, usage) keep going up to main().
 */
export async function runAdminCommand(ctx: CliContext, command: () => Promise<number>): Promise<number> {
  try {
    return await command();
  } catch (error) {
    if (!(error instanceof AdminApiError)) throw error;
    ctx.output.err(formatApiError(ctx, error));
    return 1;
  }
}

function formatApiError(ctx: CliContext, error: AdminApiError): string {
  const line = `${ctx.output.color.red(error.code)}: ${error.message}`;
  if (error.details.length > 0) {
    // Validation details stay on the same line: `path: message; path: message`.
    const details = error.details.map(formatDetail).join('; ');
    return `${line} (${details})`;
  }
  if (error.retryAfterSeconds !== null) return `${line} (retry in ${error.retryAfterSeconds} s)`;
  if (error.explanation !== null) return `${line} (${error.explanation})`;
  if (error.code === 'UNAUTHORIZED') return `${line} (the session has ended: run \`idp admin login\` again)`;
  return line;
}

/**
 * `"page_size" must be less than or equal to 100` already names the field:
 * the wire location (`query.page_size`) is left out then, as a flag user
 * never typed it. Otherwise `path: message`.
 */
function formatDetail(detail: { path: unknown; message: string }): string {
  const path = Array.isArray(detail.path) ? detail.path.join('.') : String(detail.path);
  const field = path.split('.').at(-1) ?? path;
  return detail.message.includes(`"${field}"`) ? detail.message : `${path}: ${detail.message}`;
}
