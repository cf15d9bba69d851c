import type { Config } from '../../../src/config/types.js';
import type { GroupRecord } from '../../../src/model/index.js';
import type { DatabaseKind } from '../../support/databases.js';
import { testIdentityProvider, testUser } from '../../support/config-fixture.js';
import type { RunningIdp } from '../../e2e/support/start-idp.js';
import { startOidcUpstream, type OidcUpstream, type UpstreamAccount } from './oidc-upstream.js';
import { startGithubUpstream, type GithubAccount, type GithubUpstream } from './github-upstream.js';
import { startIdpWithUpstreams } from './start-idp-with-upstreams.js';

export interface GroupsFixture {
  idp: RunningIdp;
  oidc: OidcUpstream;
  github: GithubUpstream;
  /** The OpenID upstream's accounts, read at each sign-in: set one's `groups` before it signs in. */
  corpAccounts: Record<string, UpstreamAccount>;
  /** The GitHub upstream's accounts, likewise for `teams`. */
  githubAccounts: GithubAccount[];
  subOf(email: string): Promise<string>;
  /** A user's memberships, as [group, source, provider] sorted. */
  memberships(sub: string): Promise<[string, string, string][]>;
  /** The group.member_* events, oldest first. */
  memberEvents(): Promise<{ type: string; actor: string; subject: string; detail: Record<string, unknown> }[]>;
  stop(): Promise<void>;
}

/** 150 teams, acme/sre on the second page of 100 in another case, acme/platform on the first. */
const manyTeams = Array.from({ length: 150 }, (_, i) =>
  i === 120 ? 'ACME/sre' : i === 5 ? 'acme/platform' : `acme/team-${i}`,
);

/**
 * Groups whose `upstream` entries map upstream sign-ins (docs/http-api.md,
 * "Groups from the upstream"), each upstream a real server on 127.0.0.1:
 * oidc-provider behind `corp` (require_link) and `corp-partners`
 * (auto_link), both asking for the `groups` scope; the GitHub-shaped
 * server behind `github` (with read:org) and `github-plain` (named by no
 * rule). Groups: sre (corp and corp-partners `groups` = sre, the github
 * team acme/sre), dev (corp `groups` = dev), platform (the team
 * acme/platform), ops (no rule). bob is config-managed.
 */
export async function startGroupsFixture(kind: DatabaseKind, overrides: Partial<Config> = {}): Promise<GroupsFixture> {
  const githubAccounts: GithubAccount[] = [
    {
      id: 201,
      login: 'grace',
      email: null,
      emails: [{ email: 'grace@users.example', primary: true, verified: true }],
      teams: manyTeams,
    },
    {
      id: 202,
      login: 'hopper',
      email: null,
      emails: [{ email: 'hopper@users.example', primary: true, verified: true }],
      teams: ['acme/sre'],
    },
  ];
  const github = await startGithubUpstream({
    clientId: 'gh-client',
    clientSecret: 'gh-secret-0123456789',
    accounts: githubAccounts,
  });
  const corpAccounts: Record<string, UpstreamAccount> = {
    ada: { email: 'ada@example.com', email_verified: true, groups: ['sre', 'x'] },
    'bob-corp': { email: 'bob@example.com', email_verified: true, groups: ['sre', 'dev'] },
  };
  let oidc: OidcUpstream | undefined;
  const idp = await startIdpWithUpstreams(kind, async (url) => {
    oidc = await startOidcUpstream({
      clients: [
        {
          client_id: 'idp-corp',
          client_secret: 'corp-secret-0123456789',
          redirect_uris: ['corp', 'corp-partners'].map((id) => `${url}/api/auth/providers/${id}/callback`),
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      accounts: corpAccounts,
    });
    const corp = {
      type: 'generic_oauth' as const,
      clientId: 'idp-corp',
      clientSecret: 'corp-secret-0123456789',
      authorizationUrl: `${oidc.issuer}/auth`,
      tokenUrl: `${oidc.issuer}/token`,
      scopes: ['openid', 'email', 'groups'],
    };
    const gh = { clientId: 'gh-client', clientSecret: 'gh-secret-0123456789', ...github.endpoints };
    return {
      users: [testUser({ sub: 'bob' })],
      registration: {
        enabled: true,
        allowedEmailPatterns: ['*@example.com', '*@users.example'],
        emailVerificationRequired: true,
        signupNotice: {},
      },
      identityProviders: [
        testIdentityProvider({ id: 'corp', displayName: 'Corp SSO', ...corp }),
        testIdentityProvider({
          id: 'corp-partners',
          displayName: 'Corp Partners',
          emailConflictStrategy: 'auto_link',
          ...corp,
        }),
        testIdentityProvider({ id: 'github', scopes: ['read:user', 'user:email', 'read:org'], ...gh }),
        testIdentityProvider({ id: 'github-plain', ...gh }),
      ],
      ...overrides,
    };
  });

  const { storage, db } = idp.database;
  const group = (id: string, upstream: GroupRecord['upstream']): GroupRecord => ({
    id,
    name: id,
    description: null,
    upstream,
    createdAt: 1,
    updatedAt: 1,
  });
  // Saved as `idp apply` stores the file's groups: the table is where sign-ins read the rules.
  for (const record of [
    group('sre', [
      { provider: 'corp', claim: 'groups', value: 'sre' },
      { provider: 'corp-partners', claim: 'groups', value: 'sre' },
      { provider: 'github', team: 'acme/sre' },
    ]),
    group('dev', [{ provider: 'corp', claim: 'groups', value: 'dev' }]),
    group('platform', [{ provider: 'github', team: 'acme/platform' }]),
    group('ops', []),
  ])
    await storage.repositories.groups.save(storage.db, record);

  return {
    idp,
    oidc: oidc!,
    github,
    corpAccounts,
    githubAccounts,
    async subOf(email) {
      const row: { sub: string } | undefined = await db('users').where({ email }).first('sub');
      if (!row) throw new Error(`no user ${email}`);
      return row.sub;
    },
    async memberships(sub) {
      const rows: { group_id: string; source: string; provider: string }[] = await db('group_members')
        .where({ sub })
        .select('group_id', 'source', 'provider')
        .orderBy(['group_id', 'source', 'provider']);
      return rows.map((r) => [r.group_id, r.source, r.provider]);
    },
    async memberEvents() {
      const rows: { type: string; actor: string; subject: string; detail: string }[] = await db('events')
        .whereIn('type', ['group.member_added', 'group.member_removed'])
        .orderBy('id')
        .select('type', 'actor', 'subject', 'detail');
      return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
    },
    async stop() {
      await idp.stop();
      await Promise.all([github.stop(), oidc?.stop()]);
    },
  };
}
