import { error, type ConfigRule } from './config-rule.js';
import { isHttpUrl } from './is-http-url.js';

/**
 * server.base_url is the issuer and the origin every browser request is
 * checked against, so it must be an absolute http(s) URL with a host. The
 * schema's `format: uri` lets `localhost:8080` through (a URI whose scheme
 * is "localhost"), which would then publish a broken issuer.
 */
export const checkBaseUrl: ConfigRule = (config) => {
  const value = config.server.base_url;
  if (typeof value !== 'string') return [];
  return isHttpUrl(value)
    ? []
    : [
        error(
          ['server', 'base_url'],
          `${JSON.stringify(value)} is not an absolute http(s) URL: write the scheme too, such as http://localhost:8080`,
        ),
      ];
};
