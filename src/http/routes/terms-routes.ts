import Joi from 'joi';
import type { Request } from '@hapi/hapi';
import type { RouteSpec } from '../route-definition.js';
import type { HttpDeps } from '../http-deps.js';
import type { TermStanding } from '../../accounts/index.js';
import { readSession, sessionOf } from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { requestLocale } from '../request-locale.js';
import { adminErrors, commonErrors, errorResponse } from '../schemas/error-schema.js';

/** The terms of service (docs/http-api.md, "Terms of service"), in the request's locale. */
const termSchema = Joi.object({
  id: Joi.string().required(),
  version: Joi.string().required(),
  required: Joi.boolean().required(),
  consent_mode: Joi.string().valid('explicit', 'implicit').required(),
  locale: Joi.string().required().description('The locale of title and content: the best the term has for the request'),
  title: Joi.string().required(),
  type: Joi.string().valid('link', 'text').required(),
  content: Joi.string()
    .required()
    .description(
      'The URL (type link) or the text (type text) as the config states it; the text may hold HTML, so sanitise it before inserting it as markup (the built-in pages do)',
    ),
  accepted_version: Joi.string()
    .allow(null)
    .required()
    .description('The version the signed-in user accepted most recently; null without a session'),
  accepted_at: Joi.string().isoDate().allow(null).required(),
}).label('Term');

const termsResponse = (description: string) => ({
  description,
  schema: Joi.object({ terms: Joi.array().items(termSchema).required() }).label('TermList'),
});

/** The term's content in the locale asked for, else its language, else the default locale, else its first. */
function localized(
  content: Record<string, { title: string; type: 'link' | 'text'; content: string }>,
  locale: string,
  defaultLocale: string,
) {
  const language = locale.split('-')[0].toLowerCase();
  const key =
    Object.keys(content).find((k) => k.toLowerCase() === locale.toLowerCase()) ??
    Object.keys(content).find((k) => k.toLowerCase().split('-')[0] === language) ??
    (Object.hasOwn(content, defaultLocale) ? defaultLocale : Object.keys(content)[0]);
  return { locale: key, ...content[key] };
}

function toBodies(deps: HttpDeps, request: Request, standings: TermStanding[]) {
  const locale = requestLocale(request, deps.config.i18n);
  return standings.map(({ term, acceptedVersion, acceptedAt }) => ({
    id: term.id,
    version: term.version,
    required: term.required,
    consent_mode: term.consentMode,
    ...localized(term.content, locale, deps.config.i18n.defaultLocale),
    accepted_version: acceptedVersion,
    accepted_at: acceptedAt === null ? null : new Date(acceptedAt).toISOString(),
  }));
}

const localeQuery = Joi.object({
  locale: Joi.string().max(35).description('Preferred locale (else Accept-Language, else i18n.default_locale)'),
});

export const termsListRoute: RouteSpec = {
  tags: ['Terms'],
  summary: 'The terms of service, with what the signed-in user accepted',
  validate: { query: localeQuery },
  responses: { 200: termsResponse('The current terms, ordered by id'), ...commonErrors },
  handler: (deps) => async (request, h) => {
    const session = readSession(request);
    const standings = await deps.accounts.userTerms.list(session?.user.sub ?? null);
    return h.response({ terms: toBodies(deps, request, standings) }).header('cache-control', 'no-store');
  },
};

export const termsAcceptRoute: RouteSpec = {
  tags: ['Terms'],
  summary: 'Accept terms of service at their current version',
  description:
    'Each acceptance is kept with its version and time; accepting a version again changes nothing. Nothing is recorded when one item is refused.',
  validate: {
    query: localeQuery,
    payload: Joi.object({
      terms: Joi.array()
        .items(
          Joi.object({
            id: Joi.string().min(1).max(255).required(),
            version: Joi.string().min(1).max(255).required(),
          }).label('TermAcceptance'),
        )
        .min(1)
        .max(100)
        .required(),
    }).label('AcceptTermsRequest'),
  },
  responses: {
    200: termsResponse("Every current term with the user's standing after the acceptance"),
    ...commonErrors,
    401: errorResponse('UNAUTHORIZED: Authentication is required to access this resource.'),
    403: errorResponse('ORIGIN_NOT_ALLOWED: the request came from another origin'),
    404: errorResponse('TERMS_NOT_FOUND: there are no terms with this id'),
    409: errorResponse('TERMS_VERSION_MISMATCH: the version is not the current one'),
  },
  handler: (deps) => async (request) => {
    const session = sessionOf(request);
    const { terms } = request.payload as { terms: { id: string; version: string }[] };
    const standings = await deps.accounts.userTerms.accept(session.user.sub, terms, {
      clientAddress: addressOf(request),
    });
    return { terms: toBodies(deps, request, standings) };
  },
};

export const adminTermsStatusRoute: RouteSpec = {
  tags: ['Admin'],
  summary: 'How many users accepted each term at its current version',
  description: 'Counts live (not soft-deleted) users; `pending` have still to accept the current version.',
  responses: {
    200: {
      description: 'One row per term, ordered by id',
      schema: Joi.object({
        terms: Joi.array()
          .items(
            Joi.object({
              id: Joi.string().required(),
              version: Joi.string().required(),
              required: Joi.boolean().required(),
              accepted: Joi.number().integer().min(0).required(),
              pending: Joi.number().integer().min(0).required(),
            }).label('TermStatus'),
          )
          .required(),
      }).label('TermStatusList'),
    },
    ...adminErrors,
  },
  handler: (deps) => async () => ({ terms: await deps.accounts.userTerms.status() }),
};
