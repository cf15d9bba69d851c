import type { Request } from '@hapi/hapi';
import { ApiError, type ApiErrorDetail } from '../api-error.js';
import { OAuthError } from '../oidc/errors.js';

/**
 * The one answer to input the edge refuses, whoever refused it (joi, or the
 * control-character check): 400 VALIDATION_ERROR with the details on the
 * JSON API, invalid_request on protocol routes (CONTRIBUTING.md, "How the code is written", 5: never hapi's
 * default body). Returned, not thrown, so callers read as `throw invalidInput(…)`.
 */
export function invalidInput(request: Request, details: ApiErrorDetail[]): ApiError | OAuthError {
  const app = request.route.settings.app;
  if (app?.protocol) return new OAuthError('invalid_request', details[0]?.message ?? 'The request is invalid.');
  return new ApiError(400, 'VALIDATION_ERROR', 'The request is invalid.', { details });
}
