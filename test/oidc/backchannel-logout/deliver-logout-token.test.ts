import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverLogoutToken } from '../../../src/oidc/backchannel-logout/deliver-logout-token.js';

/** Back-Channel Logout §2.5 against a real receiver on 127.0.0.1: only a 2xx is a delivery. */
describe('oidcc-backchannel-logouttoken delivery: deliverLogoutToken', () => {
  const bodies: { contentType: string | undefined; body: string }[] = [];
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push({ contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString() });
        const path = req.url ?? '/';
        if (path === '/hang') return;
        if (path === '/redirect') res.writeHead(302, { location: '/ok' }).end();
        else res.writeHead(path === '/ok' ? 204 : 503).end('{"error":"x"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const options = () => ({ timeoutMs: 2000, signal: new AbortController().signal });

  it('POSTs logout_token as a form; a 2xx is success', async () => {
    await deliverLogoutToken(`${url}/ok`, 'a.b.c', options());
    expect(bodies.at(-1)).toEqual({ contentType: 'application/x-www-form-urlencoded', body: 'logout_token=a.b.c' });
  });

  it('fails on another status and on a redirect, which it does not follow', async () => {
    await expect(deliverLogoutToken(`${url}/down`, 'a.b.c', options())).rejects.toThrow('answered HTTP 503');
    const before = bodies.length;
    await expect(deliverLogoutToken(`${url}/redirect`, 'a.b.c', options())).rejects.toThrow('answered HTTP 302');
    expect(bodies.length).toBe(before + 1);
  });

  it('cuts off a receiver that does not answer, and stops when the job is aborted', async () => {
    await expect(
      deliverLogoutToken(`${url}/hang`, 'a.b.c', { timeoutMs: 100, signal: new AbortController().signal }),
    ).rejects.toThrow('no answer within 100 ms');
    const aborted = new AbortController();
    const pending = deliverLogoutToken(`${url}/hang`, 'a.b.c', { timeoutMs: 5000, signal: aborted.signal });
    aborted.abort(new Error('lease lost'));
    await expect(pending).rejects.toThrow();
  });

  it('fails when nothing listens', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await expect(deliverLogoutToken(`http://127.0.0.1:${port}/`, 'a.b.c', options())).rejects.toThrow();
  });
});
