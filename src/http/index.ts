/**
 * The HTTP edge (hapi, joi): routes.ts is THE route table (METHOD path auth
 * handler), routes/ holds each route's schemas, OpenAPI text and thin
 * handler, auth/ the session-cookie strategies, openapi/ the
 * OpenAPI 3.1 document built from the same joi schemas. A request flows:
 * joi validation (wire shape, snake_case) → the route's handler → a service
 * or the OIDC engine (camelCase) → render, and every error through
 * render-error.ts as `{ code, message }` or an OAuth error. Only this
 * folder imports hapi or joi.
 */
export { createServer, type HttpServer } from './create-server.js';
export { routeTable, documentedRoutes, openApiDocument } from './routes.js';
export type { HttpDeps } from './http-deps.js';
