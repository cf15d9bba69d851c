import type { BrandingConfig, FrontendConfig } from '../config/types.js';
import { builtinUiDirectory } from './builtin-ui-directory.js';
import { escapeHtml } from './html-variables.js';
import { createProxyFrontend } from './proxy-frontend.js';
import { createStaticFrontend } from './static-frontend.js';

export type Frontend =
  | { mode: 'disabled' }
  | {
      mode: 'static';
      /** The built-in UI (idp's own pages), or else the operator's directory. */
      builtin: boolean;
      static: ReturnType<typeof createStaticFrontend>;
    }
  | { mode: 'proxy'; proxy: ReturnType<typeof createProxyFrontend> };

/** Whether the built-in UI is served: its pages then own their paths (/login, /account…); otherwise the operator's front end does. */
export function usesBuiltinUi(frontend: FrontendConfig): boolean {
  return (
    frontend.enabled && frontend.mode === 'static' && (frontend.path === '' || frontend.path === builtinUiDirectory)
  );
}

/**
 * The `frontend` group (docs/oidc.md, "Frontend serving"): `enabled: false` serves no pages
 * (API-only); `static` serves `path`, by default the built-in UI; `proxy`
 * forwards to the URL in `path`. html_variables fill `{{KEY}}` in HTML;
 * BRANDING_NAME (branding.name, escaped) is always there unless overridden.
 */
export function createFrontend(frontend: FrontendConfig, branding: BrandingConfig): Frontend {
  if (!frontend.enabled) return { mode: 'disabled' };
  // A getter: a config reload changes branding.name in place, and the next page shows it.
  const variables: Record<string, string> = {
    get BRANDING_NAME() {
      return escapeHtml(branding.name);
    },
    ...frontend.htmlVariables,
  };
  if (frontend.mode === 'proxy') {
    if (!frontend.path) throw new Error('frontend.path must be the upstream URL when frontend.mode is proxy');
    return { mode: 'proxy', proxy: createProxyFrontend({ upstream: frontend.path, variables }) };
  }
  const directory = frontend.path || builtinUiDirectory;
  const builtin = directory === builtinUiDirectory;
  return { mode: 'static', builtin, static: createStaticFrontend({ directory, variables, spaFallback: !builtin }) };
}
