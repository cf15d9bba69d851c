import { fetchUpstreamJson } from './fetch-upstream.js';
import { UpstreamError } from './federation-error.js';

/**
 * Pages of 100 teams a sign-in reads at most: 1,000 teams. The teams of a
 * member of more are read up to there and the rest ignored, like any
 * assertion too large to be meant (docs/http-api.md, "Groups from the upstream").
 */
export const maxTeamPages = 10;

/**
 * The GitHub teams of the signed-in user, as `org/slug` in lower case
 * (GitHub compares both case-insensitively): GET {userinfo_url}/teams
 * (`/user/teams`, which needs the scope read:org), 100 a page while the
 * Link header names a next one, with the timeout of every upstream call.
 * The page number is ours, never a URL from the answer: the token goes
 * nowhere but the API it was issued for. A failed page fails the sign-in
 * (UPSTREAM_ERROR), as a failed /user or /user/emails does.
 */
export async function fetchGithubTeams(userUrl: string, accessToken: string, timeoutMs: number): Promise<string[]> {
  const teams: string[] = [];
  for (let page = 1; page <= maxTeamPages; page += 1) {
    const url = new URL(`${userUrl.replace(/\/+$/, '')}/teams`);
    url.searchParams.set('per_page', '100');
    url.searchParams.set('page', String(page));
    const { status, body, link } = await fetchUpstreamJson(
      'teams endpoint',
      url.href,
      { headers: { authorization: `Bearer ${accessToken}` } },
      timeoutMs,
    );
    if (status !== 200) throw new UpstreamError(`teams endpoint: HTTP ${status}`);
    teams.push(...readTeams('teams endpoint', body));
    if (!hasNextPage(link)) break;
  }
  return teams;
}

/** One page of GET /user/teams (`[{ slug, organization: { login } }]`): the entries without both strings are skipped. */
export function readTeams(what: string, body: unknown): string[] {
  if (!Array.isArray(body)) throw new UpstreamError(`${what}: the answer is not a list of teams`);
  return body.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { slug, organization } = entry as Record<string, unknown>;
    const org =
      typeof organization === 'object' && organization !== null ? (organization as { login?: unknown }).login : null;
    return typeof slug === 'string' && typeof org === 'string' ? [`${org}/${slug}`.toLowerCase()] : [];
  });
}

/** RFC 8288 §3: does a link of the header have the relation type `next`? */
export function hasNextPage(link: string | null): boolean {
  if (link === null) return false;
  return link.split(',').some((part) => {
    const rel = /;\s*rel\s*=\s*"?([^";]*)/i.exec(part);
    return rel !== null && rel[1].trim().toLowerCase().split(/\s+/).includes('next');
  });
}
