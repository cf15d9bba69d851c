import { listen, json, misbehave, pkceMatches, randomToken, type Misbehaviour } from './upstream-http.js';

export interface GithubAccount {
  id: number;
  login: string;
  /** The public profile address (may be unverified, or null). */
  email: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
  /** Teams as `org/slug` (GET /user/teams), in the order GitHub would page them. */
  teams?: string[];
}

/**
 * A server shaped like GitHub's OAuth app endpoints and REST API (the parts
 * idp calls): /login/oauth/authorize approves at once as the chosen account,
 * /login/oauth/access_token redeems a code once (client secret, redirect
 * URI and PKCE checked; a refused code is a 200 with an error body, as
 * GitHub does; form-encoded unless JSON is accepted), /user,
 * /user/emails and /user/teams want a User-Agent and the bearer token;
 * /user/teams pages by `per_page` (default 30) and `page` with a Link
 * header, as GitHub does.
 */
export async function startGithubUpstream(options: {
  clientId: string;
  clientSecret: string;
  accounts: GithubAccount[];
}) {
  let current = options.accounts[0];
  const behaviour: {
    authorize: 'approve' | 'deny';
    token: Misbehaviour;
    user: Misbehaviour;
    emails: Misbehaviour;
    teams: Misbehaviour;
  } = {
    authorize: 'approve',
    token: 'none',
    user: 'none',
    emails: 'none',
    teams: 'none',
  };
  /** The query of every GET /user/teams. */
  const teamRequests: URLSearchParams[] = [];
  const codes = new Map<string, { account: GithubAccount; redirectUri: string; challenge: string | null }>();
  const tokens = new Map<string, GithubAccount>();
  const authorizationRequests: URLSearchParams[] = [];

  const server = await listen((req, res, url, body) => {
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      authorizationRequests.push(url.searchParams);
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
      const state = url.searchParams.get('state');
      if (url.searchParams.get('client_id') !== options.clientId) {
        json(res, 404, { message: 'unknown client' });
        return;
      }
      if (behaviour.authorize === 'deny') {
        redirect.searchParams.set('error', 'access_denied');
        redirect.searchParams.set('error_description', 'The user has denied your application access.');
      } else {
        const code = randomToken();
        codes.set(code, {
          account: current,
          redirectUri: redirect.href,
          challenge: url.searchParams.get('code_challenge'),
        });
        redirect.searchParams.set('code', code);
      }
      if (state) redirect.searchParams.set('state', state);
      res.writeHead(302, { location: redirect.href }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      if (misbehave(res, behaviour.token)) return;
      const form = new URLSearchParams(body);
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const ok =
        form.get('client_id') === options.clientId &&
        form.get('client_secret') === options.clientSecret &&
        code !== undefined &&
        code.redirectUri === form.get('redirect_uri') &&
        pkceMatches(form.get('code_verifier'), code.challenge);
      const answer: Record<string, string> = ok
        ? { access_token: `gho_${randomToken()}`, token_type: 'bearer', scope: 'read:user,user:email' }
        : { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' };
      if (ok) tokens.set(answer.access_token, code.account);
      if (req.headers.accept?.includes('application/json')) {
        json(res, 200, answer);
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' })
        .end(new URLSearchParams(answer).toString());
      return;
    }
    if (req.method === 'GET' && ['/user', '/user/emails', '/user/teams'].includes(url.pathname)) {
      if (!req.headers['user-agent']) {
        json(res, 403, {
          message: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header',
        });
        return;
      }
      const account = tokens.get((req.headers.authorization ?? '').replace(/^(Bearer|token) /, ''));
      if (!account) {
        json(res, 401, { message: 'Bad credentials' });
        return;
      }
      if (url.pathname === '/user') {
        if (misbehave(res, behaviour.user)) return;
        json(res, 200, { login: account.login, id: account.id, email: account.email, name: null });
        return;
      }
      if (url.pathname === '/user/teams') {
        teamRequests.push(url.searchParams);
        if (misbehave(res, behaviour.teams)) return;
        const perPage = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        const teams = account.teams ?? [];
        const last = Math.max(1, Math.ceil(teams.length / perPage));
        const pageUrl = (n: number) => `<${server.url}/user/teams?per_page=${perPage}&page=${n}>`;
        const links = [
          ...(page < last ? [`${pageUrl(page + 1)}; rel="next"`, `${pageUrl(last)}; rel="last"`] : []),
          ...(page > 1 ? [`${pageUrl(1)}; rel="first"`, `${pageUrl(page - 1)}; rel="prev"`] : []),
        ];
        res.writeHead(200, { 'content-type': 'application/json', ...(links.length ? { link: links.join(', ') } : {}) });
        res.end(
          JSON.stringify(
            teams.slice((page - 1) * perPage, page * perPage).map((team, i) => {
              const [org, slug] = team.split('/');
              return { id: page * 1000 + i, slug, name: slug, organization: { login: org, id: 1 } };
            }),
          ),
        );
        return;
      }
      if (misbehave(res, behaviour.emails)) return;
      json(
        res,
        200,
        account.emails.map((e) => ({ ...e, visibility: e.primary ? 'private' : null })),
      );
      return;
    }
    json(res, 404, { message: 'Not Found' });
  });

  return {
    url: server.url,
    behaviour,
    authorizationRequests,
    teamRequests,
    signInAs(login: string) {
      current = options.accounts.find((a) => a.login === login) ?? current;
    },
    /** identity_providers[] overrides pointing a `github` provider here. */
    endpoints: {
      authorizationUrl: `${server.url}/login/oauth/authorize`,
      tokenUrl: `${server.url}/login/oauth/access_token`,
      userinfoUrl: `${server.url}/user`,
      emailUrl: `${server.url}/user/emails`,
    },
    stop: server.stop,
  };
}

export type GithubUpstream = Awaited<ReturnType<typeof startGithubUpstream>>;
