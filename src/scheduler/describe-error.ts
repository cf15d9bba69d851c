/** The message kept in last_error and logs: one line, bounded, never a stack (logs stay readable, rows stay small). */
export function describeError(error: unknown): string {
  const message =
    error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return message.length > 2000 ? `${message.slice(0, 2000)}…` : message;
}
