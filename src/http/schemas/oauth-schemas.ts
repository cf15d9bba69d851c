import Joi from 'joi';
import type { ResponseSpec } from '../route-definition.js';

/** RFC 6749 §5.2 error body of the protocol endpoints. */
export const oauthErrorSchema = Joi.object({
  error: Joi.string().required().description('RFC 6749 §5.2 / RFC 6750 §3.1 error code'),
  error_description: Joi.string().description('Human-readable explanation'),
}).label('OAuthError');

export function oauthErrorResponse(description: string): ResponseSpec {
  return { description, schema: oauthErrorSchema };
}

/** A form parameter: one string; a repeated parameter fails as invalid_request (RFC 6749 §3.2). */
export const formParam = (description: string) => Joi.string().allow('').description(description);

/** Client authentication in the body (client_secret_post, none). */
export const clientAuthParams = {
  client_id: formParam('client_secret_post / none: the client identifier'),
  client_secret: formParam('client_secret_post: the client secret'),
};

/** RFC 6749 §5.1: token responses must not be cached. */
export const noStoreHeaders = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;
