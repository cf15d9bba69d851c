import type { AreaBase } from '../area-wiring.js';
import { createFrontend } from './create-frontend.js';
import { loadUiBundles } from './ui-bundles.js';

/** The web area: the pages on every path the API does not serve (HttpDeps web), and the built pages' script bundles. */
export function wireWeb(base: Pick<AreaBase, 'config'>) {
  return {
    services: { frontend: createFrontend(base.config.frontend, base.config.branding), uiBundles: loadUiBundles() },
  };
}
