import type { Request, ResponseToolkit } from '@hapi/hapi';
import { ApiError, type ApiErrorDetail } from '../api-error.js';
import { OAuthError } from '../oidc/errors.js';

interface JoiLikeError extends Error {
  details?: { path: (string | number)[]; message: string }[];
  output?: { payload?: { validation?: { source?: string } } };
}

/**
 * The joi failAction of every route: 400 VALIDATION_ERROR with one detail per
 * problem (`path` like `query.page_size`), or invalid_request on protocol
 * routes (STYLE.md 5: never hapi's default body).
 */
export function validationFailure(request: Request, _h: ResponseToolkit, error?: Error): never {
  const joiError = error as JoiLikeError | undefined;
  const source = joiError?.output?.payload?.validation?.source ?? 'request';
  const details: ApiErrorDetail[] = (joiError?.details ?? []).map((d) => ({
    path: [source, ...d.path].join('.'),
    message: d.message,
  }));
  const app = request.route.settings.app as { protocol?: boolean } | undefined;
  if (app?.protocol) throw new OAuthError('invalid_request', details[0]?.message ?? 'The request is invalid.');
  throw new ApiError(400, 'VALIDATION_ERROR', 'The request is invalid.', { details });
}
