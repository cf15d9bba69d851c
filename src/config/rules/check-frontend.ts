import { error, type ConfigRule } from './config-rule.js';

/** In proxy mode, frontend.path is the upstream the non-API requests go to. */
export const checkFrontend: ConfigRule = (config) => {
  const { mode, path } = config.frontend;
  if (mode !== 'proxy' || path === undefined) return [];
  const url = URL.canParse(path) ? new URL(path) : null;
  return url && (url.protocol === 'http:' || url.protocol === 'https:')
    ? []
    : [
        error(
          ['frontend', 'path'],
          'must be an http(s) URL of the upstream front end in proxy mode (such as http://127.0.0.1:5173)',
        ),
      ];
};
