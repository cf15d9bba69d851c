// @ts-check
/** Child process: the ceiling, a hapi GET route that reads two request headers and answers 200 with four of its own. */
import Hapi from '@hapi/hapi';

const server = Hapi.server({ host: '127.0.0.1', port: Number(process.argv.at(-1) ?? 0) });
server.route({
  method: 'GET',
  path: '/api/auth-request',
  handler: (request, h) =>
    h
      .response()
      .code(200)
      .header('remote-user', String(request.headers['x-original-url'] ?? ''))
      .header('remote-email', String(request.headers.cookie ?? '').slice(0, 8))
      .header('remote-name', 'bench')
      .header('remote-groups', 'staff'),
});
await server.start();
process.send?.({ url: server.info.uri });
process.on('SIGTERM', () => void server.stop().then(() => process.exit(0)));
