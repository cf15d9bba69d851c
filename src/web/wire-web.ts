import type { AreaBase } from '../area-wiring.js';
import { createFrontend } from './create-frontend.js';

/** The web area: the pages on every path the API does not serve (HttpDeps web). */
export function wireWeb(base: Pick<AreaBase, 'config'>) {
  return { services: { frontend: createFrontend(base.config.frontend, base.config.branding) } };
}
