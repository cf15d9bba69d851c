import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Joi from 'joi';
import { ApiError } from '../../api-error.js';
import { contentSecurityPolicy, renderDocsStylesheet } from '../../web/index.js';
import type { RouteSpec } from '../route-definition.js';
import type { OpenApiDocument } from '../openapi/build-openapi-document.js';

/**
 * The API reference (docs/http-api.md, "OpenAPI"): the live document, a self-hosted Swagger
 * UI (files from swagger-ui-dist, never a CDN) titled openapi.ui_title, and
 * the document generated at build time. Left out of the document itself.
 */
const swaggerUiDirectory = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** dist/openapi.json, written by `npm run build` (the same path from src/ and dist/). */
export const staticOpenApiFile = fileURLToPath(new URL('../../../dist/openapi.json', import.meta.url));

// Relative URLs: the page also works when a proxy mounts the service under a prefix.
// They resolve against the page (/api/docs), not this script, hence docs/json.
const initScript = `window.ui = SwaggerUIBundle({
  url: 'docs/json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  withCredentials: true,
  // Off: the default posts the document to validator.swagger.io for a badge.
  validatorUrl: null
});
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The brand's name above the reference, and docs/theme.css (its accent and the dark variant) over Swagger UI's own. */
function referencePage(title: string, brand: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="docs/assets/swagger-ui.css">
<link rel="stylesheet" href="docs/theme.css">
<link rel="icon" type="image/png" href="docs/assets/favicon-32x32.png">
</head>
<body>
<header class="brand">${escapeHtml(brand)}</header>
<div id="swagger-ui"></div>
<script src="docs/assets/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;
}

/**
 * idp's page policy, plus data: images: Swagger UI draws its icons as
 * data:image/svg+xml URIs from its bundle. Its scripts and styles are files
 * from here ('self'); its inline styles are set through the DOM, which
 * style-src does not govern, so no 'unsafe-inline' (test/e2e/page-policy.browser.test.ts).
 */
const referencePolicy = contentSecurityPolicy({ 'img-src': "'self' data:" });

const hiddenRoute: Pick<RouteSpec, 'tags' | 'hidden'> = { tags: [], hidden: true };
const page = (description: string) => ({ 200: { description } });

/** The live document; the table serves it only when openapi.enabled is true, as the three below. */
export function docsJsonRoute(document: () => OpenApiDocument): RouteSpec {
  return {
    ...hiddenRoute,
    summary: 'The live OpenAPI 3.1 document',
    responses: page('OpenAPI 3.1.0 document'),
    handler: () => () => document(),
  };
}

export const docsPageRoute: RouteSpec = {
  ...hiddenRoute,
  summary: 'The interactive API reference',
  responses: page('HTML page'),
  handler: (deps) => (_request, h) =>
    h
      .response(referencePage(deps.config.openapi.uiTitle, deps.config.branding.name))
      .type('text/html; charset=utf-8')
      .header('content-security-policy', referencePolicy),
};

export const docsThemeRoute: RouteSpec = {
  ...hiddenRoute,
  summary: 'The look of the reference UI: the brand and a dark variant',
  responses: page('CSS'),
  handler: (deps) => (_request, h) =>
    h
      .response(renderDocsStylesheet(deps.config.branding.primaryColor))
      .type('text/css; charset=utf-8')
      .header('cache-control', 'no-cache'),
};

export const docsInitRoute: RouteSpec = {
  ...hiddenRoute,
  summary: 'Starts the reference UI',
  responses: page('JavaScript'),
  handler: () => (_request, h) => h.response(initScript).type('application/javascript; charset=utf-8'),
};

export const docsAssetRoute: RouteSpec = {
  ...hiddenRoute,
  summary: 'Files of the reference UI',
  validate: {
    params: Joi.object({
      file: Joi.string()
        .valid(...Object.keys(assets))
        .required(),
    }),
  },
  responses: page('Static file'),
  handler: () => (request, h) => {
    const file = request.params.file as string;
    return h
      .file(path.join(swaggerUiDirectory, file), { confine: swaggerUiDirectory })
      .type(assets[file])
      .header('cache-control', 'public, max-age=86400');
  },
};

export const staticOpenApiRoute: RouteSpec = {
  ...hiddenRoute,
  summary: 'The OpenAPI 3.1 document generated at build time',
  responses: page('OpenAPI 3.1.0 document'),
  handler: () => async (_request, h) => {
    try {
      return h.response(await readFile(staticOpenApiFile)).type('application/json; charset=utf-8');
    } catch {
      throw new ApiError(404, 'NOT_FOUND', 'The static OpenAPI document was not built; run npm run build.');
    }
  },
};
