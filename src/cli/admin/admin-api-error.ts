import type { ApiErrorBody } from './admin-api-types.js';

/**
 * An error answer of the admin API (docs/http-api.md, "Admin API"). Commands let it
 * propagate; runAdminCommand prints it as one `CODE: message` line.
 */
export class AdminApiError extends Error {
  readonly code: string;
  readonly details: { path: string; message: string }[];
  /** Why, when the CLI can tell more than the server's message (changeUser). */
  explanation: string | null = null;

  constructor(
    readonly status: number,
    body: ApiErrorBody,
    /** From Retry-After on a 429 (the login rate limit), when the server sent it in seconds. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(body.message);
    this.name = 'AdminApiError';
    this.code = body.code;
    this.details = body.details ?? [];
  }
}
