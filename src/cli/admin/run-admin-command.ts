import type { CliContext } from '../context.js';
import { AdminApiError } from './admin-api-error.js';

/**
 * Runs an admin subcommand and renders an API error as the one line
 * DESIGN.md 4 asks for, `CODE: message`, with exit code 1. Other failures
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
    const details = error.details.map((detail) => `${formatPath(detail.path)}: ${detail.message}`).join('; ');
    return `${line} (${details})`;
  }
  if (error.code === 'UNAUTHORIZED') return `${line} (the session has ended: run \`idp admin login\` again)`;
  return line;
}

function formatPath(path: unknown): string {
  return Array.isArray(path) ? path.join('.') : String(path);
}
