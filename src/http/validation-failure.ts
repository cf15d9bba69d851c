import type { Request, ResponseToolkit } from '@hapi/hapi';
import type { ApiErrorDetail } from '../api-error.js';
import { invalidInput } from './invalid-input.js';

interface JoiLikeError extends Error {
  details?: { path: (string | number)[]; message: string }[];
  output?: { payload?: { validation?: { source?: string } } };
}

/**
 * The joi failAction of every route: one detail per problem (`path` like
 * `query.page_size`), answered as invalid input (./invalid-input.ts).
 */
export function validationFailure(request: Request, _h: ResponseToolkit, error?: Error): never {
  const joiError: JoiLikeError | undefined = error;
  const source = joiError?.output?.payload?.validation?.source ?? 'request';
  const details: ApiErrorDetail[] = (joiError?.details ?? []).map((d) => ({
    path: [source, ...d.path].join('.'),
    message: d.message,
  }));
  throw invalidInput(request, details);
}
