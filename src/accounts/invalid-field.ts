import { ApiError } from '../api-error.js';

/**
 * 400 VALIDATION_ERROR for one field of the request body that only a
 * service can judge (it depends on the config or on the user), shaped like
 * the edge's joi failures: `details: [{ path: "payload.<field>", message }]`.
 */
export function invalidField(field: string, message: string): ApiError {
  return new ApiError(400, 'VALIDATION_ERROR', 'The request is invalid.', {
    details: [{ path: `payload.${field}`, message: `"${field}" ${message}` }],
  });
}
