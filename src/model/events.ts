/** Every kind of audit event (issue #14), named `noun.verb` so that a prefix filter reads naturally in logs. */
export const eventTypes = [
  'sign_in.succeeded',
  'sign_in.failed',
  'sign_in.rate_limited',
  'sign_out',
  'registration',
  'email.verified',
  'password.changed',
  'password.reset',
  'second_factor.added',
  'second_factor.removed',
  'second_factor.reset_by_admin',
  'passkey.added',
  'passkey.removed',
  'provider.linked',
  'provider.unlinked',
  'consent.granted',
  'consent.revoked',
  'terms.accepted',
  'access.denied',
  'account.deleted',
  'admin.user_created',
  'admin.user_updated',
  'admin.user_deleted',
  'user.imported',
  'admin.user_restored',
  'config.applied',
  'signing_key.rotated',
  'group.member_added',
  'group.member_removed',
] as const;

export type EventType = (typeof eventTypes)[number];

/** JSON-safe values only: a detail is stored and shown as JSON. */
export type EventDetail = Readonly<Record<string, string | number | boolean | null | readonly string[]>>;

export interface NewEventRecord {
  time: number;
  type: EventType;
  /**
   * The user's sub, the admin's sub, `config` for `idp apply`'s `config.applied`, `import` for `idp import`, `apply` for the memberships
   * it changes, or `upstream` for a membership an upstream provider asserted.
   */
  actor: string;
  /** Whom the event concerns (a user's sub, a key id…), when not the actor alone. */
  subject: string | null;
  clientAddress: string | null;
  clientId: string | null;
  detail: EventDetail;
}

export interface EventRecord extends NewEventRecord {
  id: number;
}
