import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { errorSchema } from '../schemas/error-schema.js';

/**
 * How long the database gets to answer: a load balancer probing a hung
 * database needs a 503 now, not after the pool's 60 s acquire timeout.
 */
export const healthTimeoutMs = 2000;

function withinTimeout(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${healthTimeoutMs} ms`)), healthTimeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** docs/http-api.md, "Health": 200 { status: 'ok' } when the database answers, 503 otherwise. */
export const healthRoute: RouteSpec = {
  tags: ['Health'],
  summary: 'Server health check',
  description: 'Answers 200 when the server and its database answer, 503 otherwise.',
  responses: {
    200: {
      description: 'Healthy',
      schema: Joi.object({ status: Joi.string().valid('ok').required() }).label('Health'),
    },
    503: { description: 'SERVICE_UNAVAILABLE: the database does not answer', schema: errorSchema },
  },
  handler: (deps) => async (_request, h) => {
    try {
      await withinTimeout(deps.pingDatabase());
      return h.response({ status: 'ok' }).header('cache-control', 'no-store');
    } catch (error) {
      deps.logger.warn({ err: error }, 'health check: the database does not answer');
      return h
        .response({ code: 'SERVICE_UNAVAILABLE', message: 'The database is not answering.' })
        .code(503)
        .header('cache-control', 'no-store');
    }
  },
};
