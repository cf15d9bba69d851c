import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import Provider from 'oidc-provider';

export interface UpstreamAccount {
  email?: string;
  email_verified?: boolean;
  /** Given for the `groups` scope; any JSON, as upstreams send what they like. */
  groups?: unknown;
}

export interface OidcUpstreamClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  token_endpoint_auth_method: 'client_secret_basic' | 'client_secret_post';
}

export interface OidcUpstream {
  issuer: string;
  /** The account the next sign-in at the upstream completes as. */
  signInAs(accountId: string): void;
  /** Every sign-in request that reached the authorization endpoint (its query). */
  readonly authorizationRequests: URLSearchParams[];
  stop(): Promise<void>;
}

/**
 * A real OpenID provider (the oidc-provider package) on 127.0.0.1, playing
 * an OpenID upstream (generic_oauth with openid, google with overridden
 * endpoints). Its interaction completes by itself as the account the test
 * chose: what idp does with the answer is under test, not the upstream's
 * login page. `idTokenClaims: false` (the package's default, conformIdTokenClaims)
 * keeps the e-mail out of the ID token, so idp must read it from userinfo.
 * The accounts are read at each sign-in: a test may change their claims.
 */
export async function startOidcUpstream(options: {
  clients: OidcUpstreamClient[];
  accounts: Record<string, UpstreamAccount>;
  idTokenClaims?: boolean;
}): Promise<OidcUpstream> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  let current = Object.keys(options.accounts)[0];
  const authorizationRequests: URLSearchParams[] = [];

  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      ...client,
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    jwks: { keys: [{ ...key, use: 'sig', alg: 'RS256' }] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups'] },
    conformIdTokenClaims: !(options.idTokenClaims ?? false),
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    async findAccount(_ctx: unknown, id: string) {
      const account = options.accounts[id];
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  });
  const callback = provider.callback();

  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/auth') authorizationRequests.push(url.searchParams);
    if (!url.pathname.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: current, clientId: details.params.client_id as string });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: current }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      res.writeHead(500).end((error as Error).message);
    });
  });

  return {
    issuer,
    authorizationRequests,
    signInAs(accountId) {
      current = accountId;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
