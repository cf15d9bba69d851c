import type { Logger } from 'pino';
import { ApiError } from '../api-error.js';
import type { SignInService } from '../interaction/index.js';
import type { UpstreamIntent } from '../model/index.js';
import type { AccountRules, RequestContext } from './account-rules.js';
import { FederationError, UpstreamError, type FederationErrorCode } from './federation-error.js';
import type { PendingLinks } from './pending-link.js';
import { authorizationUrl, fetchUpstreamIdentity, type UpstreamClientDeps } from './upstream-client.js';
import { wantsOf } from './upstream-groups.js';
import type { UpstreamMemberships } from './upstream-memberships.js';
import type { UpstreamDirectory, UpstreamProvider } from './upstream-provider.js';
import type { UpstreamStates } from './upstream-states.js';
import { newBinding } from './upstream-states.js';

/** What the login buttons show (GET /api/auth/providers). */
export interface ProviderSummary {
  id: string;
  type: UpstreamProvider['type'];
  displayName: string;
  iconUrl: string | null;
}

/** The browser's session as these flows need it. */
export interface FederationSession {
  sub: string;
  email: string;
}

/**
 * Where the browser goes next, and which cookies change: the session (a
 * sign-in), the binding (set when a flow starts), the pending link (set
 * with LINK_REQUIRED, cleared when it completes; null clears it).
 */
export interface FederationAnswer {
  location: string;
  sessionId?: string;
  binding?: string;
  pendingLink?: string | null;
}

export const providerPaths = {
  authorize: (id: string) => `/api/auth/providers/${encodeURIComponent(id)}/authorize`,
  callback: (id: string) => `/api/auth/providers/${encodeURIComponent(id)}/callback`,
  link: (id: string) => `/api/auth/providers/${encodeURIComponent(id)}/link`,
};

const withQuery = (path: string, query: Record<string, string | undefined>) => {
  const params = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return `${path}?${params.toString()}`;
};

/** docs/http-api.md, "Upstream identity providers": every failure of an upstream sign-in lands on /login?error=CODE (with where the user was going). */
export function loginErrorLocation(
  code: FederationErrorCode,
  returnTo: string | null,
  extra: Record<string, string> = {},
): string {
  return withQuery('/login', { error: code, ...extra, return_to: returnTo ?? undefined });
}

/**
 * Upstream sign-in and linking (docs/oidc.md, "Interaction: the sign-in steps"; docs/http-api.md
 * "Upstream identity providers"):
 *
 *   begin (authorize) → upstream → finish (callback) → account rules →
 *   sign-in steps (src/interaction) → return_to
 *
 * begin records a single-use state bound to the browser and sends it to
 * the upstream with PKCE S256 (and a nonce to OpenID upstreams). finish
 * redeems the state, trades the code for the upstream identity, and
 * decides with ./account-rules.ts: sign in (the sign-in steps then run as
 * for a password, with amr `fed`), link (intent=link), or LINK_REQUIRED
 * with a pending link that completeLink finishes once the person has
 * signed in to the existing account. A sign-in first replaces the user's
 * memberships from this provider with what it asserts now
 * (./upstream-memberships.ts), so that the access rules of the sign-in
 * steps and of every token after see them.
 */
export function createFederationService(deps: {
  directory: UpstreamDirectory;
  states: UpstreamStates;
  pendingLinks: PendingLinks;
  accounts: AccountRules;
  memberships: UpstreamMemberships;
  signIn: SignInService;
  client: UpstreamClientDeps;
  baseUrl: string;
  logger: Logger;
}) {
  const redirectUri = (provider: UpstreamProvider) => `${deps.baseUrl}${providerPaths.callback(provider.id)}`;

  async function usable(id: string): Promise<UpstreamProvider> {
    const provider = await deps.directory.find(id);
    if (!provider) throw new FederationError('PROVIDER_NOT_FOUND', 'The sign-in provider is unknown or not enabled.');
    return provider;
  }

  async function signInAs(
    user: Parameters<SignInService['withUpstream']>[0],
    returnTo: string,
    context: RequestContext,
  ): Promise<FederationAnswer> {
    let outcome: Awaited<ReturnType<SignInService['withUpstream']>>;
    try {
      outcome = await deps.signIn.withUpstream(user, context);
    } catch (error) {
      // The emailVerified step: the account exists (and its connection), its address waits for the mailed link.
      if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED')
        throw new FederationError('EMAIL_NOT_VERIFIED', error.message);
      throw error;
    }
    if (outcome.status === 'authenticated') return { location: returnTo, sessionId: outcome.sessionId };
    return { location: withQuery('/login/second-factor', { return_to: returnTo }), sessionId: outcome.sessionId };
  }

  function failed(error: unknown, providerId: string, returnTo: string | null): FederationAnswer {
    if (!(error instanceof FederationError)) throw error;
    if (error instanceof UpstreamError)
      deps.logger.warn({ provider: providerId, reason: error.reason }, 'upstream sign-in failed');
    return {
      location: loginErrorLocation(error.code, returnTo, error.namesProvider ? { provider: providerId } : {}),
    };
  }

  return {
    async listProviders(): Promise<ProviderSummary[]> {
      return (await deps.directory.list()).map(({ id, type, displayName, iconUrl }) => ({
        id,
        type,
        displayName,
        iconUrl,
      }));
    },

    /**
     * GET /api/auth/providers/{id}/authorize: 404 PROVIDER_NOT_FOUND for a
     * provider that is not usable; intent=link without a session goes to
     * /login first and comes back here.
     */
    async begin(input: {
      providerId: string;
      intent: UpstreamIntent;
      returnTo: string;
      binding: string | null;
      session: FederationSession | null;
    }): Promise<FederationAnswer> {
      const provider = await deps.directory.find(input.providerId);
      if (!provider) throw new ApiError(404, 'PROVIDER_NOT_FOUND', 'The sign-in provider is unknown or not enabled.');
      if (input.intent === 'link' && !input.session) {
        const here = withQuery(providerPaths.authorize(provider.id), { intent: 'link', return_to: input.returnTo });
        return { location: withQuery('/login', { return_to: here }) };
      }
      const binding = input.binding ?? newBinding();
      const secrets = await deps.states.begin({
        providerId: provider.id,
        intent: input.intent,
        returnTo: input.returnTo,
        linkSub: input.intent === 'link' && input.session ? input.session.sub : null,
        binding,
      });
      return { location: authorizationUrl(provider, redirectUri(provider), secrets), binding };
    },

    /** GET (and, for form_post, POST) /api/auth/providers/{id}/callback. Always a redirect, never an error response. */
    async finish(input: {
      providerId: string;
      params: { code?: string; state?: string; error?: string };
      binding: string | null;
      session: FederationSession | null;
      context: RequestContext;
    }): Promise<FederationAnswer> {
      let returnTo: string | null = null;
      try {
        const provider = await usable(input.providerId);
        const { record, secrets } = await deps.states.redeem({
          state: input.params.state,
          providerId: provider.id,
          binding: input.binding,
        });
        returnTo = record.returnTo;
        if (input.params.error !== undefined)
          throw new UpstreamError(`the upstream answered error=${input.params.error}`);
        if (!input.params.code) throw new UpstreamError('the callback has neither code nor error');
        // Group rules map sign-ins only: a link is not one (the next sign-in through the provider maps).
        const rules = record.intent === 'login' ? await deps.memberships.rulesFor(provider.id) : [];
        const identity = await fetchUpstreamIdentity(
          provider,
          {
            code: input.params.code,
            redirectUri: redirectUri(provider),
            codeVerifier: secrets.codeVerifier,
            nonce: secrets.nonce,
          },
          deps.client,
          wantsOf(rules),
        );
        if (record.intent === 'link') {
          // The link goes to the account that asked for it, and only while that account is still the one signed in here.
          if (record.linkSub === null || input.session?.sub !== record.linkSub) {
            throw new FederationError('INVALID_STATE', 'The account that asked for this link is no longer signed in.');
          }
          await deps.accounts.link(provider, identity, record.linkSub, input.context);
          return { location: record.returnTo };
        }
        const decision = await deps.accounts.login(provider, identity, input.context);
        if (decision.kind === 'sign_in') {
          await deps.memberships.replace(decision.user, provider.id, rules, identity.assertion, input.context);
          return { ...(await signInAs(decision.user, record.returnTo, input.context)), pendingLink: null };
        }
        const pendingLink = deps.pendingLinks.seal({
          providerId: provider.id,
          subject: identity.subject,
          email: decision.email,
        });
        const completeAt = withQuery(providerPaths.link(provider.id), { return_to: record.returnTo });
        return {
          location: loginErrorLocation('LINK_REQUIRED', completeAt, {
            provider: provider.id,
            login_hint: decision.email,
          }),
          pendingLink,
        };
      } catch (error) {
        return failed(error, input.providerId, returnTo);
      }
    },

    /**
     * GET /api/auth/providers/{id}/link: after LINK_REQUIRED the person signs
     * in to the account holding the address; the browser then comes here
     * (the login page's return_to) and the pending link completes. Signed in
     * to another account, or not at all, it is asked again.
     */
    async completeLink(input: {
      providerId: string;
      returnTo: string;
      pendingLink: string | null;
      session: FederationSession | null;
      context: RequestContext;
    }): Promise<FederationAnswer> {
      const here = withQuery(providerPaths.link(input.providerId), { return_to: input.returnTo });
      try {
        const provider = await usable(input.providerId);
        const pending = deps.pendingLinks.open(input.pendingLink);
        if (!pending || pending.providerId !== provider.id) {
          throw new FederationError('INVALID_STATE', 'No link is waiting in this browser, or it expired.');
        }
        if (!input.session || input.session.email.toLowerCase() !== pending.email.toLowerCase()) {
          return {
            location: loginErrorLocation('LINK_REQUIRED', here, { provider: provider.id, login_hint: pending.email }),
          };
        }
        await deps.accounts.link(
          provider,
          { subject: pending.subject, email: pending.email, emailVerified: false },
          input.session.sub,
          input.context,
        );
        return { location: input.returnTo, pendingLink: null };
      } catch (error) {
        return { ...failed(error, input.providerId, input.returnTo), pendingLink: null };
      }
    },
  };
}

export type FederationService = ReturnType<typeof createFederationService>;
