import Joi from 'joi';
import { withinTimeout } from '../../operations/index.js';
import type { RouteSpec } from '../route-definition.js';
import { errorSchema } from '../schemas/error-schema.js';

/**
 * How long the database gets to answer: a load balancer probing a hung
 * database needs a 503 now, not after the pool's 60 s acquire timeout.
 */
export const healthTimeoutMs = 2000;

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
      await withinTimeout(deps.pingDatabase(), healthTimeoutMs);
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

/**
 * docs/http-api.md, "Health": 200 { status: 'ready' } when this instance
 * may take traffic (the database answers within healthTimeoutMs, its
 * migrations are current, a config is loaded), else 503 NOT_READY naming
 * the cause. A Kubernetes readiness probe; /api/health stays the liveness one.
 */
export const readinessRoute: RouteSpec = {
  tags: ['Health'],
  summary: 'Readiness check',
  description:
    'Answers 200 when this instance may take traffic: its database answers, its migrations are current and a config is loaded; 503 NOT_READY naming what is missing otherwise.',
  responses: {
    200: {
      description: 'Ready',
      schema: Joi.object({ status: Joi.string().valid('ready').required() }).label('Readiness'),
    },
    503: {
      description: 'NOT_READY: the database does not answer, or migrations are pending (the message says which)',
      schema: errorSchema,
    },
  },
  handler: (deps) => async (_request, h) => {
    const answer = await deps.operations.readiness.check(healthTimeoutMs);
    if (answer.ready) return h.response({ status: 'ready' }).header('cache-control', 'no-store');
    deps.logger.warn({ cause: answer.cause }, `readiness check: ${answer.message}`);
    return h.response({ code: 'NOT_READY', message: answer.message }).code(503).header('cache-control', 'no-store');
  },
};
