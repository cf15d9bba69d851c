import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a receiver does with one request: answer 200, answer 500, or never answer. */
export type ReceiverBehaviour = 'ok' | 'fail' | 'hang';

export interface ReceivedLogout {
  /** The client's path on the receiver (/web, /crm). */
  path: string;
  contentType: string | undefined;
  /** The `logout_token` form field; null when the body had none. */
  logoutToken: string | null;
  behaviour: ReceiverBehaviour;
  at: number;
}

/**
 * A relying party's back-channel logout endpoint (OpenID Back-Channel
 * Logout 1.0 §2.5), a real HTTP server on 127.0.0.1. It records every POST
 * and answers per path as told: the next behaviours queued for the path,
 * then 200.
 */
export class LogoutReceiver {
  readonly received: ReceivedLogout[] = [];
  private readonly plans = new Map<string, ReceiverBehaviour[]>();
  private readonly server = http.createServer((req, res) => void this.handle(req, res));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next requests to `path` get these answers, in order. */
  plan(path: string, ...behaviours: ReceiverBehaviour[]): void {
    this.plans.set(path, [...(this.plans.get(path) ?? []), ...behaviours]);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? '/', 'http://receiver').pathname;
    const behaviour = this.plans.get(path)?.shift() ?? 'ok';
    this.received.push({
      path,
      contentType: req.headers['content-type'],
      logoutToken: new URLSearchParams(Buffer.concat(chunks).toString()).get('logout_token'),
      behaviour,
      at: Date.now(),
    });
    if (behaviour === 'hang') return;
    res.writeHead(behaviour === 'ok' ? 200 : 500, { 'cache-control': 'no-store' }).end();
  }
}
