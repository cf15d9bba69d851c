// @ts-check
/** Child process: the ceiling, a hapi route that only parses a form body and answers JSON. */
import Hapi from '@hapi/hapi';

const server = Hapi.server({ host: '127.0.0.1', port: 0 });
server.route({
  method: 'POST',
  path: '/oauth2/token',
  options: { payload: { allow: 'application/x-www-form-urlencoded' } },
  handler: (request) => ({ grant_type: /** @type {Record<string, string>} */ (request.payload).grant_type }),
});
await server.start();
process.send?.({ url: server.info.uri });
process.on('SIGTERM', () => void server.stop().then(() => process.exit(0)));
