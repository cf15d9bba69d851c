import Joi from 'joi';
import type { ResponseSpec } from '../route-definition.js';

/** docs/http-api.md, "Conventions": `{ code, message }`, plus `details` on VALIDATION_ERROR. */
export const errorSchema = Joi.object({
  code: Joi.string().required().description('Machine-readable error code'),
  message: Joi.string().required().description('Human-readable message'),
  details: Joi.array()
    .items(Joi.object({ path: Joi.string().required(), message: Joi.string().required() }))
    .description('Present on 400 VALIDATION_ERROR: one entry per invalid field'),
}).label('Error');

export function errorResponse(description: string): ResponseSpec {
  return { description, schema: errorSchema };
}

/** The errors every JSON API route may answer. */
export const commonErrors: Record<number, ResponseSpec> = {
  400: errorResponse('VALIDATION_ERROR, MALFORMED_JSON or BAD_REQUEST'),
};

/** What an admin operation declares besides its own errors (docs/http-api.md, "Admin API"). */
export const adminErrors: Record<number, ResponseSpec> = {
  ...commonErrors,
  401: errorResponse('UNAUTHORIZED: Authentication is required to access this resource.'),
  403: errorResponse('FORBIDDEN: You do not have permission to access this resource. / ORIGIN_NOT_ALLOWED'),
};
