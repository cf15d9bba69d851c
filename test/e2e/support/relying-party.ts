import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';

export interface SignInResult {
  claims: oidc.IDToken;
  /** The ID token as received (its header names the algorithm). */
  idToken: string;
  accessToken: string;
  /** When offline_access was granted. */
  refreshToken: string | undefined;
  userinfo: oidc.UserInfoResponse;
  scope: string | undefined;
}

/**
 * A real relying party: a tiny HTTP server using openid-client, which checks
 * state, nonce, PKCE, `iss` (RFC 9207) and the ID token signature and claims
 * the strict way. GET /start begins a sign-in; GET /callback finishes it and
 * shows who signed in (or the error it got).
 */
export class RelyingParty {
  readonly results: (SignInResult | Error)[] = [];
  private server?: http.Server;
  private readonly flows = new Map<string, { verifier: string; nonce: string }>();
  private configuration?: oidc.Configuration;

  constructor(
    readonly port: number,
    private readonly options: {
      clientId: string;
      clientSecret: string | null;
      scope?: string;
      metadata?: Partial<oidc.ClientMetadata>;
    },
  ) {}

  get redirectUri(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Discovery against the provider (only once it runs). */
  async discover(issuer: string): Promise<oidc.Configuration> {
    const auth = this.options.clientSecret === null ? oidc.None() : oidc.ClientSecretBasic(this.options.clientSecret);
    this.configuration = await oidc.discovery(new URL(issuer), this.options.clientId, this.options.metadata, auth, {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the test servers speak plain HTTP on 127.0.0.1
      execute: [oidc.allowInsecureRequests],
    });
    return this.configuration;
  }

  /** A fresh authorization URL with PKCE S256, state and nonce. */
  async authorizationUrl(extra: Record<string, string> = {}): Promise<URL> {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    this.flows.set(state, { verifier, nonce });
    return oidc.buildAuthorizationUrl(this.config(), {
      redirect_uri: this.redirectUri,
      scope: this.options.scope ?? 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...extra,
    });
  }

  /** Redeems the code in a callback URL the way an application does; throws what the library throws. */
  async finish(callback: URL, checks: { maxAge?: number } = {}): Promise<SignInResult> {
    const state = callback.searchParams.get('state') ?? '';
    const flow = this.flows.get(state);
    if (!flow) throw new Error(`unknown state ${state}`);
    this.flows.delete(state);
    const tokens = await oidc.authorizationCodeGrant(this.config(), callback, {
      pkceCodeVerifier: flow.verifier,
      expectedNonce: flow.nonce,
      expectedState: state,
      idTokenExpected: true,
      maxAge: checks.maxAge,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    const userinfo = await oidc.fetchUserInfo(this.config(), tokens.access_token, claims.sub);
    return {
      claims,
      idToken: tokens.id_token!,
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      userinfo,
      scope: tokens.scope,
    };
  }

  async listen(): Promise<void> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    if ((this.server.address() as AddressInfo).port !== this.port) throw new Error('relying party port mismatch');
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname === '/start') {
      res.writeHead(302, { location: (await this.authorizationUrl()).href }).end();
      return;
    }
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    try {
      const result = await this.finish(url);
      this.results.push(result);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>Signed in</title><h1 id="who">Signed in as ${result.claims.sub} (${String(result.userinfo.email)})</h1>`,
      );
    } catch (error) {
      this.results.push(error as Error);
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`sign-in failed: ${(error as Error).message}`);
    }
  }

  private config(): oidc.Configuration {
    if (!this.configuration) throw new Error('call discover() first');
    return this.configuration;
  }
}
