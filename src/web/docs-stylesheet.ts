import { accentPalette } from './pages/accent-palette.js';

/** The built-in accent of /ui/app.css (light, dark), for a server without a usable branding.primary_color. */
const builtinAccent = { accentText: '#2151c8', accentTextDark: '#8fb0ff' };

/**
 * GET /api/docs/theme.css: the API reference (Swagger UI) in the pages'
 * look. The brand's accent (branding.primary_color, made readable as on
 * the pages) on links, the Authorize button and focus rings; the brand's
 * name above it; and under `prefers-color-scheme: dark` the pages' dark
 * colours on Swagger UI's own, which are fixed light ones. Swagger UI has
 * no dark theme of its own: these rules cover what a reader meets (the
 * info block, the tags, operations, parameters, responses, schemas, the
 * authorization dialog), and leave the method colours as they are.
 */
export function renderDocsStylesheet(primaryColor: string | null): string {
  const { accentText, accentTextDark } = accentPalette(primaryColor) ?? builtinAccent;
  return `:root {
  color-scheme: light dark;
  --docs-accent: ${accentText};
  --docs-page: #ffffff;
  --docs-text: #191c21;
  --docs-muted: #575e6b;
}
@media (prefers-color-scheme: dark) {
  :root {
    --docs-accent: ${accentTextDark};
    --docs-page: #0f1115;
    --docs-text: #e7e9ee;
    --docs-muted: #a7aebb;
    --docs-card: #1c1f26;
    --docs-border: #30353f;
    --docs-input: #14161b;
  }
}
body {
  margin: 0;
  background: var(--docs-page);
  color: var(--docs-text);
}
.brand {
  max-width: 1460px;
  margin: 0 auto;
  padding: 1.25rem 20px 0;
  font: 700 1.125rem/1.3 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  color: var(--docs-text);
}
.brand img {
  display: block;
  max-height: 48px;
  max-width: 100%;
}
.swagger-ui a,
.swagger-ui .info a,
.swagger-ui .info .link {
  color: var(--docs-accent);
}
.swagger-ui .btn.authorize {
  border-color: var(--docs-accent);
  color: var(--docs-accent);
}
.swagger-ui .btn.authorize svg {
  fill: var(--docs-accent);
}
.swagger-ui :focus-visible {
  outline: 2px solid var(--docs-accent);
  outline-offset: 2px;
}
@media (prefers-color-scheme: dark) {
  .swagger-ui,
  .swagger-ui .info .title,
  .swagger-ui .info p,
  .swagger-ui .info li,
  .swagger-ui .info table,
  .swagger-ui .opblock-tag,
  .swagger-ui .opblock-tag small,
  .swagger-ui .opblock .opblock-summary-path,
  .swagger-ui .opblock .opblock-summary-path__deprecated,
  .swagger-ui .opblock .opblock-summary-description,
  .swagger-ui .opblock .opblock-summary-operation-id,
  .swagger-ui .opblock .opblock-section-header h4,
  .swagger-ui .opblock .opblock-section-header > label,
  .swagger-ui .opblock-description-wrapper,
  .swagger-ui .opblock-description-wrapper p,
  .swagger-ui .opblock-external-docs-wrapper,
  .swagger-ui .opblock-title_normal,
  .swagger-ui .opblock-title_normal p,
  .swagger-ui .renderedMarkdown p,
  .swagger-ui .markdown p,
  .swagger-ui table thead tr th,
  .swagger-ui table thead tr td,
  .swagger-ui .parameters-col_description,
  .swagger-ui .parameter__name,
  .swagger-ui .parameter__type,
  .swagger-ui .parameter__in,
  .swagger-ui .response-col_status,
  .swagger-ui .response-col_description,
  .swagger-ui .response-col_links,
  .swagger-ui .responses-inner h4,
  .swagger-ui .responses-inner h5,
  .swagger-ui .tab li,
  .swagger-ui .tab li button.tablinks,
  .swagger-ui section.models h4,
  .swagger-ui section.models h5,
  .swagger-ui .model,
  .swagger-ui .model-title,
  .swagger-ui .model-toggle::after,
  .swagger-ui .prop-type,
  .swagger-ui .scheme-container .schemes > label,
  .swagger-ui label,
  .swagger-ui .dialog-ux .modal-ux-header h3,
  .swagger-ui .dialog-ux .modal-ux-content p,
  .swagger-ui .dialog-ux .modal-ux-content h4,
  .swagger-ui .servers-title,
  .swagger-ui .loading-container .loading::after {
    color: var(--docs-text);
  }
  .swagger-ui .parameter__in,
  .swagger-ui .prop-format,
  .swagger-ui .opblock-tag small,
  .swagger-ui .model .property.primitive {
    color: var(--docs-muted);
  }
  .swagger-ui .scheme-container,
  .swagger-ui section.models,
  .swagger-ui section.models .model-container,
  .swagger-ui .opblock .opblock-section-header,
  .swagger-ui .dialog-ux .modal-ux,
  .swagger-ui .dialog-ux .modal-ux-header,
  .swagger-ui .responses-inner,
  .swagger-ui .model-box {
    background: var(--docs-card);
    border-color: var(--docs-border);
    box-shadow: none;
  }
  .swagger-ui .opblock-tag,
  .swagger-ui section.models,
  .swagger-ui table thead tr th,
  .swagger-ui table thead tr td,
  .swagger-ui .opblock .opblock-section-header {
    border-color: var(--docs-border);
  }
  .swagger-ui input[type='text'],
  .swagger-ui input[type='password'],
  .swagger-ui input[type='search'],
  .swagger-ui input[type='email'],
  .swagger-ui input[type='file'],
  .swagger-ui textarea,
  .swagger-ui select {
    background: var(--docs-input);
    color: var(--docs-text);
    border-color: var(--docs-border);
  }
  .swagger-ui .btn {
    color: var(--docs-text);
    border-color: var(--docs-border);
  }
  .swagger-ui .expand-operation svg,
  .swagger-ui .expand-methods svg,
  .swagger-ui .arrow,
  .swagger-ui .models-control svg,
  .swagger-ui .model-toggle,
  .swagger-ui .opblock-control-arrow svg,
  .swagger-ui .close-modal svg {
    fill: var(--docs-text);
  }
}
`;
}
