import type { CliContext } from '../context.js';
import { CliError } from '../output.js';
import { promptHiddenLine } from './read-password.js';

/**
 * The code that completes an `idp admin login` of an account with a second
 * factor (docs/http-api.md, "Second factors"): --code when given, else a hidden prompt at the
 * terminal. Either an authenticator app's 6 digits or a recovery code; the
 * server tells which by its shape. Both are single use, so --code in shell
 * history is spent; the prompt is still the better habit for recovery codes.
 */
export async function readSecondFactorCode(
  ctx: CliContext,
  source: { given?: string; email: string },
): Promise<string> {
  const given = source.given?.trim();
  if (given) return given;
  const typed = await promptHiddenLine(
    ctx,
    `Code from the authenticator app of ${source.email}, or a recovery code (input hidden):`,
  );
  if (typed === null) {
    throw new CliError(
      `${source.email} confirms sign-ins with a second factor: pass --code CODE (the authenticator app's, or a recovery code), or run idp admin login in a terminal to be asked`,
    );
  }
  if (typed.trim() === '') throw new CliError('the code is empty');
  return typed.trim();
}
