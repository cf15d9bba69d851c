import joiToJson from 'joi-to-json';

// A CommonJS module whose export is the parse function itself.
const parse = joiToJson as unknown as typeof joiToJson.parse;
import type Joi from 'joi';
import type { OpenApiConfig } from '../../config/types.js';
import type { ApiTag, RouteAuth, RouteDefinition } from '../route-definition.js';

/**
 * Builds the OpenAPI 3.1.0 document (docs/http-api.md, "OpenAPI", "Conventions") from the
 * route table: the joi schemas on the routes are the one source of truth,
 * converted with joi-to-json's OpenAPI 3.1 (JSON Schema 2020-12) mode.
 */
export type OpenApiDocument = Record<string, unknown>;

const tagDescriptions: Record<ApiTag, string> = {
  Auth: 'User authentication: login, register, password management',
  User: 'User profile and account management',
  Consent: 'OAuth consent management',
  Terms: 'Terms of service management',
  'OAuth Connect': 'Connections to third-party OAuth providers',
  OpenID: 'OpenID Connect protocol endpoints: authorize, token, userinfo, JWKS',
  Health: 'Server health check',
  Admin: 'Admin console: current admin identity, user administration',
};

const securityByAuth: Record<RouteAuth, Record<string, string[]>[] | undefined> = {
  none: undefined,
  session: [{ cookieSessionAuth: [] }],
  admin: [{ cookieSessionAuth: [] }],
  'optional-session': [{}, { cookieSessionAuth: [] }],
  'pending-session': [{ cookieSessionAuth: [] }],
  'session-or-pending': [{ cookieSessionAuth: [] }],
};

export function buildOpenApiDocument(routes: RouteDefinition[], openapi: OpenApiConfig): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.hidden) continue;
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: openapi.title, description: openapi.description, version: '1.0.0' },
    tags: Object.entries(tagDescriptions).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        cookieSessionAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: 'session',
          description: 'Encrypted session cookie issued by POST /api/auth/login',
        },
        // Described for clients of /oauth2/userinfo, which reads the token itself (no route auth mode uses it).
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'OAuth 2.0 access token (RFC 9068 JWT)',
        },
      },
    },
  };
}

function operation(route: RouteDefinition): Record<string, unknown> {
  const op: Record<string, unknown> = {
    tags: route.tags,
    summary: route.summary,
    operationId: operationId(route),
  };
  if (route.description) op.description = route.description;
  const parameters = [
    ...parametersOf(route.validate?.params, 'path'),
    ...parametersOf(route.validate?.query, 'query'),
    ...parametersOf(route.validate?.headers, 'header'),
  ];
  if (parameters.length > 0) op.parameters = parameters;
  if (route.validate?.payload) {
    // What the server parses: a route that says which body it allows (a form_post callback) is taken at its word.
    const allowed = route.hapiOptions?.payload?.allow;
    const contentType =
      typeof allowed === 'string' ? allowed : route.protocol ? 'application/x-www-form-urlencoded' : 'application/json';
    // hapi hands joi a missing body as null: a schema that allows null makes the body optional (DELETE /api/user).
    const required = route.validate.payload.validate(null).error !== undefined;
    op.requestBody = { required, content: { [contentType]: { schema: toJsonSchema(route.validate.payload) } } };
  }
  op.responses = Object.fromEntries(
    Object.entries(route.responses).map(([status, response]) => [
      status,
      response.schema
        ? {
            description: response.description,
            content: { [response.contentType ?? 'application/json']: { schema: toJsonSchema(response.schema) } },
          }
        : { description: response.description },
    ]),
  );
  const security = securityByAuth[route.auth];
  if (security) op.security = security;
  return op;
}

function parametersOf(
  schema: Joi.ObjectSchema | undefined,
  location: 'path' | 'query' | 'header',
): Record<string, unknown>[] {
  if (!schema) return [];
  const json = toJsonSchema(schema) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    const parameter: Record<string, unknown> = {
      name,
      in: location,
      required: location === 'path' || (json.required ?? []).includes(name),
      schema: propertySchema,
    };
    if (description) parameter.description = description;
    return parameter;
  });
}

function toJsonSchema(schema: Joi.Schema): Record<string, unknown> {
  return parse(schema, 'open-api-3.1') as Record<string, unknown>;
}

/** e.g. GET /api/admin/users/{sub} → getApiAdminUsersSub. */
function operationId(route: RouteDefinition): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}
