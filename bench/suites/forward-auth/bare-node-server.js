// @ts-check
/**
 * Child process: the floor, a node:http server with no framework that reads
 * two request headers and answers 200 with four of its own. Not a target:
 * it shows how much of the latency belongs to the machine and the load
 * generator (which share two cores) rather than to any server on it.
 */
import http from 'node:http';

const server = http.createServer((request, response) => {
  response.writeHead(200, {
    'remote-user': String(request.headers['x-original-url'] ?? ''),
    'remote-email': String(request.headers.cookie ?? '').slice(0, 8),
    'remote-name': 'bench',
    'remote-groups': 'staff',
    'content-length': '0',
  });
  response.end();
});
server.listen(Number(process.argv.at(-1) ?? 0), '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.send?.({ url: `http://127.0.0.1:${address.port}` });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
