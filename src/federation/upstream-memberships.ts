import type { Clock } from '../clock.js';
import type { EventLog } from '../events/index.js';
import type { UserRecord } from '../model/index.js';
import type { GroupRepository, MembershipKey, Tx } from '../storage/repositories.js';
import type { RequestContext } from './account-rules.js';
import { groupRulesOf, matchUpstreamGroups, type GroupRule } from './upstream-groups.js';
import type { UpstreamAssertion } from './upstream-identity.js';

/**
 * Group memberships asserted by upstream providers (docs/http-api.md,
 * "Groups from the upstream"): at each sign-in through a provider, the
 * user's `upstream` memberships of that provider become what it asserts
 * now; those of other providers, of the admin API and of the file stay.
 */
export function createUpstreamMemberships(deps: {
  db: Tx;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  groups: GroupRepository;
  events: EventLog;
  clock: Clock;
}) {
  return {
    /**
     * The rules naming this provider, read from the groups table once per
     * sign-in: the table is what the last `idp apply` stored, from whichever
     * process ran it, where the running config would be stale until a reload.
     */
    async rulesFor(providerId: string): Promise<GroupRule[]> {
      return groupRulesOf(await deps.groups.listAll(deps.db), providerId);
    },

    /**
     * One transaction: adds the asserted memberships the user lacks, removes
     * those no longer asserted, each with its event (actor `upstream`). A
     * config-managed user is left alone: its memberships come only from the
     * file.
     */
    async replace(
      user: UserRecord,
      providerId: string,
      rules: readonly GroupRule[],
      assertion: UpstreamAssertion,
      context: RequestContext,
    ): Promise<void> {
      if (user.managedBy === 'config') return;
      const asserted = new Set(matchUpstreamGroups(rules, assertion));
      const key = (groupId: string): MembershipKey => ({
        groupId,
        sub: user.sub,
        source: 'upstream',
        provider: providerId,
      });
      await deps.transaction(async (tx) => {
        const held = new Set(
          (await deps.groups.membershipsOf(tx, [user.sub]))
            .filter((m) => m.source === 'upstream' && m.provider === providerId)
            .map((m) => m.groupId),
        );
        const fresh: string[] = [];
        // A group removed by an apply since the rules were read is not joined.
        for (const id of asserted) if (!held.has(id) && (await deps.groups.findById(tx, id))) fresh.push(id);
        const added = await deps.groups.addMemberships(tx, fresh.map(key), deps.clock.now());
        const removed = await deps.groups.removeMemberships(tx, [...held].filter((id) => !asserted.has(id)).map(key));
        const changes = [
          ...added.map((m) => ['group.member_added', m] as const),
          ...removed.map((m) => ['group.member_removed', m] as const),
        ];
        for (const [type, membership] of changes)
          await deps.events.record(tx, {
            type,
            actor: 'upstream',
            subject: user.sub,
            clientAddress: context.clientAddress,
            detail: { group: membership.groupId, provider: providerId },
          });
      });
    },
  };
}

export type UpstreamMemberships = ReturnType<typeof createUpstreamMemberships>;
