import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { exportJWK, jwtVerify, SignJWT } from 'jose';
import { json, listen, misbehave, pkceMatches, randomToken, type Misbehaviour } from './upstream-http.js';

export interface AppleAccount {
  sub: string;
  email: string | null;
  /** Apple sends the string "true" or "false". */
  email_verified: 'true' | 'false';
}

/** What the next ID token gets wrong (bad-input tests). */
export interface IdTokenTampering {
  iss?: string;
  aud?: string;
  nonce?: string;
  /** Seconds from now; negative: already expired. */
  expiresIn?: number;
  /** Signed by a key that is not in the key set. */
  foreignKey?: boolean;
  /** The token endpoint answers without an id_token. */
  omit?: boolean;
}

/**
 * A server shaped like Sign in with Apple (its discovery document, the
 * authorization endpoint answering by form_post when name or email is
 * asked, the token endpoint, the key set). The token endpoint checks the
 * client secret the way Apple does: an ES256 JWT of the operator's key,
 * issued by the team for this services id, audience appleid.apple.com.
 * ID tokens are RS256 like Apple's and carry email and email_verified as
 * strings; `tamper` spoils the next one on purpose.
 */
export async function startAppleUpstream(options: {
  servicesId: string;
  teamId: string;
  clientKey: KeyObject;
  accounts: AppleAccount[];
}) {
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'apple-test-key';
  let current = options.accounts[0];
  const behaviour: { token: Misbehaviour; tamper: IdTokenTampering } = { token: 'none', tamper: {} };
  const codes = new Map<
    string,
    { account: AppleAccount; redirectUri: string; challenge: string | null; nonce: string | null }
  >();
  const authorizationRequests: URLSearchParams[] = [];
  let url = '';

  const server = await listen(async (req, res, requestUrl, body) => {
    const path = requestUrl.pathname;
    if (path === '/.well-known/openid-configuration') {
      json(res, 200, {
        issuer: url,
        authorization_endpoint: `${url}/auth/authorize`,
        token_endpoint: `${url}/auth/token`,
        jwks_uri: `${url}/auth/keys`,
        response_types_supported: ['code', 'code id_token'],
        response_modes_supported: ['query', 'fragment', 'form_post'],
        subject_types_supported: ['pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'email', 'name'],
      });
      return;
    }
    if (path === '/auth/keys') {
      json(res, 200, { keys: [{ ...(await exportJWK(signingKey.publicKey)), kid, use: 'sig', alg: 'RS256' }] });
      return;
    }
    if (req.method === 'GET' && path === '/auth/authorize') {
      const q = requestUrl.searchParams;
      authorizationRequests.push(q);
      if (q.get('client_id') !== options.servicesId) {
        json(res, 400, { error: 'invalid_client' });
        return;
      }
      const code = randomToken();
      const redirectUri = q.get('redirect_uri') ?? '';
      codes.set(code, { account: current, redirectUri, challenge: q.get('code_challenge'), nonce: q.get('nonce') });
      const answer: Record<string, string> = { code, state: q.get('state') ?? '' };
      // Apple sends the name once, on the first sign-in, as a JSON form field.
      if (q.get('scope')?.includes('name'))
        answer.user = JSON.stringify({ name: { firstName: 'Ada', lastName: 'Lovelace' }, email: current.email });
      if (q.get('response_mode') === 'form_post') {
        const inputs = Object.entries(answer)
          .map(([n, v]) => `<input type="hidden" name="${n}" value="${v.replace(/"/g, '&quot;')}">`)
          .join('');
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<!doctype html><form method="post" action="${redirectUri}">${inputs}</form><script>document.forms[0].submit()</script>`,
          );
        return;
      }
      const target = new URL(redirectUri);
      for (const [n, v] of Object.entries(answer)) target.searchParams.set(n, v);
      res.writeHead(302, { location: target.href }).end();
      return;
    }
    if (req.method === 'POST' && path === '/auth/token') {
      if (misbehave(res, behaviour.token)) return;
      const form = new URLSearchParams(body);
      if (!(await clientSecretIsValid(form.get('client_secret'), form.get('client_id')))) {
        json(res, 400, { error: 'invalid_client' });
        return;
      }
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (
        !code ||
        code.redirectUri !== form.get('redirect_uri') ||
        !pkceMatches(form.get('code_verifier'), code.challenge)
      ) {
        json(res, 400, { error: 'invalid_grant' });
        return;
      }
      const tamper = behaviour.tamper;
      behaviour.tamper = {};
      const now = Math.floor(Date.now() / 1000);
      const claims: Record<string, unknown> = {
        sub: code.account.sub,
        email_verified: code.account.email_verified,
        nonce: tamper.nonce ?? code.nonce,
        auth_time: now,
      };
      if (code.account.email !== null) claims.email = code.account.email;
      const idToken = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(tamper.iss ?? url)
        .setAudience(tamper.aud ?? options.servicesId)
        .setIssuedAt(now)
        .setExpirationTime(now + (tamper.expiresIn ?? 600))
        .sign(tamper.foreignKey ? foreignKey.privateKey : signingKey.privateKey);
      json(res, 200, {
        access_token: randomToken(),
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: randomToken(),
        ...(tamper.omit ? {} : { id_token: idToken }),
      });
      return;
    }
    json(res, 404, { error: 'not_found' });
  });
  url = server.url;

  /** Apple's rules for the client secret JWT (its "Creating a client secret"). */
  async function clientSecretIsValid(secret: string | null, clientId: string | null): Promise<boolean> {
    if (!secret || clientId !== options.servicesId) return false;
    try {
      const { payload, protectedHeader } = await jwtVerify(secret, options.clientKey, {
        algorithms: ['ES256'],
        issuer: options.teamId,
        audience: 'https://appleid.apple.com',
        subject: options.servicesId,
      });
      return typeof protectedHeader.kid === 'string' && typeof payload.exp === 'number';
    } catch {
      return false;
    }
  }

  return {
    url,
    behaviour,
    authorizationRequests,
    signInAs(sub: string) {
      current = options.accounts.find((a) => a.sub === sub) ?? current;
    },
    endpoints: { authorizationUrl: `${url}/auth/authorize`, tokenUrl: `${url}/auth/token` },
    stop: server.stop,
  };
}

/** The client secret an operator makes for Sign in with Apple: an ES256 JWT of their key (kid), issued by their team. */
export async function appleClientSecret(options: {
  privateKey: KeyObject;
  keyId: string;
  teamId: string;
  servicesId: string;
  expiresIn?: number;
}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: options.keyId })
    .setIssuer(options.teamId)
    .setSubject(options.servicesId)
    .setAudience('https://appleid.apple.com')
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 86_400 * 30))
    .sign(options.privateKey);
}

export type AppleUpstream = Awaited<ReturnType<typeof startAppleUpstream>>;
