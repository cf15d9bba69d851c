import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import type { EventType } from '../../model/index.js';
import type { AdminEventView } from '../../admin/admin-events-service.js';
import { eventTypes } from '../../model/events.js';
import { adminErrors } from '../schemas/error-schema.js';
import { paginationSchema } from '../schemas/user-schemas.js';

const eventSchema = Joi.object({
  id: Joi.number().integer().required(),
  time: Joi.string().isoDate().required().description('When it happened (ISO 8601, UTC)'),
  type: Joi.string()
    .valid(...eventTypes)
    .required(),
  actor: Joi.string().required().description("The user's sub, the admin's sub, or `config` for `idp apply`"),
  actor_email: Joi.string()
    .allow(null)
    .required()
    .description('The e-mail of the user whose sub is `actor`, read now (null when no user has it, or it was erased)'),
  subject: Joi.string().allow(null).required().description('Whom or what the event concerns, when not the actor alone'),
  subject_email: Joi.string()
    .allow(null)
    .required()
    .description(
      'The e-mail of the user whose sub is `subject`, read now (null when no user has it, or it was erased)',
    ),
  client_address: Joi.string().allow(null).required(),
  client_id: Joi.string().allow(null).required(),
  detail: Joi.object()
    .unknown(true)
    .required()
    .description('A small JSON object; never a secret, password, code or token'),
}).label('AuditEvent');

const toEventBody = (event: AdminEventView) => ({
  id: event.id,
  time: new Date(event.time).toISOString(),
  type: event.type,
  actor: event.actor,
  actor_email: event.actorEmail,
  subject: event.subject,
  subject_email: event.subjectEmail,
  client_address: event.clientAddress,
  client_id: event.clientId,
  detail: event.detail,
});

export const adminListEventsRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'List audit events',
  description:
    'Newest first. `since` is inclusive and `until` exclusive (ISO 8601 times). Events are kept for `cleanup.events_retention_days`.',
  validate: {
    query: Joi.object({
      type: Joi.string()
        .valid(...eventTypes)
        .description('Only events of this type'),
      actor: Joi.string().min(1).max(255).description('Only events by this actor (a sub, or `config`)'),
      subject: Joi.string().min(1).max(255).description('Only events about this subject'),
      since: Joi.date().iso().description('Only events at or after this time (ISO 8601)'),
      until: Joi.date().iso().description('Only events before this time (ISO 8601)'),
      page: Joi.number().integer().min(1).default(1),
      page_size: Joi.number().integer().min(1).max(100).default(20),
    }),
  },
  responses: {
    200: {
      description: 'One page of events',
      schema: Joi.object({
        events: Joi.array().items(eventSchema).required(),
        pagination: paginationSchema.required(),
      }).label('AuditEventList'),
    },
    ...adminErrors,
  },
  handler: (deps) => async (request) => {
    const q = request.query as {
      type?: EventType;
      actor?: string;
      subject?: string;
      since?: Date;
      until?: Date;
      page: number;
      page_size: number;
    };
    const result = await deps.admin.events.list({
      type: q.type,
      actor: q.actor,
      subject: q.subject,
      since: q.since?.getTime(),
      until: q.until?.getTime(),
      page: q.page,
      pageSize: q.page_size,
    });
    return {
      events: result.events.map(toEventBody),
      pagination: { page: q.page, page_size: q.page_size, total: result.total },
    };
  },
};
