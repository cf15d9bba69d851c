import { error, type ConfigRule } from './config-rule.js';

/**
 * The metrics listener is a socket of its own: on the server's port it
 * would fail to bind at start, after the config said nothing. Wildcard and
 * specific hosts overlap on one port, so only the port is compared.
 */
export const checkMetrics: ConfigRule = ({ metrics, server }) =>
  metrics.enabled && metrics.port === server.port
    ? [
        error(
          ['metrics', 'port'],
          `is server.port (${String(server.port)}): the metrics listener needs a port of its own, such as 9464`,
        ),
      ]
    : [];
