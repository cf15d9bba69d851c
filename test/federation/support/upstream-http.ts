import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';

/** A small node:http server on 127.0.0.1 for an upstream shaped like a public API. */
export async function listen(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: string) => void | Promise<void>,
) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      Promise.resolve(handler(req, res, url, body)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end((error as Error).message);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export const randomToken = () => randomBytes(16).toString('hex');

/** RFC 7636 §4.6: does the verifier hash to the challenge? */
export function pkceMatches(verifier: string | null, challenge: string | null): boolean {
  return (
    verifier !== null && challenge !== null && createHash('sha256').update(verifier).digest('base64url') === challenge
  );
}

/** The client credentials of a token request: HTTP Basic (RFC 6749 §2.3.1, form-urlencoded inside) or the body. */
export function clientCredentials(
  req: http.IncomingMessage,
  form: URLSearchParams,
): { id: string | null; secret: string | null } {
  const header = req.headers.authorization;
  if (header?.startsWith('Basic ')) {
    const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    const decode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
    return { id: decode(id), secret: decode(secret ?? '') };
  }
  return { id: form.get('client_id'), secret: form.get('client_secret') };
}

/** How an upstream misbehaves in a bad-input test. */
export type Misbehaviour = 'none' | 'refuse' | 'error_status' | 'non_json' | 'hang';

/** Answers per the misbehaviour, or returns false to let the caller answer normally. */
export function misbehave(res: http.ServerResponse, how: Misbehaviour): boolean {
  switch (how) {
    case 'none':
      return false;
    case 'refuse':
      json(res, 400, { error: 'invalid_grant', error_description: 'refused by the test' });
      return true;
    case 'error_status':
      json(res, 503, { message: 'unavailable' });
      return true;
    case 'non_json':
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><body>Sorry, we are down for maintenance</body></html>');
      return true;
    case 'hang':
      // Never answers: idp's timeout must end the wait.
      return true;
  }
}
