import { CliError } from '../output.js';
import { sendRequest, type ApiRequest } from './send-request.js';
import type {
  AccessDecisionResponse,
  AdminUser,
  CreateUserBody,
  EventListResponse,
  GroupListResponse,
  ListEventsParams,
  ListMembersParams,
  ListUsersParams,
  LockedUsersResponse,
  SessionUser,
  UpdateUserBody,
  UserGroupsResponse,
  UserListResponse,
} from './admin-api-types.js';

export interface AdminClient {
  readonly baseUrl: string;
  /**
   * POST /api/auth/login (docs/http-api.md, "Sessions and login"): the session user and the `session`
   * cookie to keep. When the account confirms sign-ins with a second factor,
   * `askCode` is asked for an authenticator app's code or a recovery code,
   * which completes the sign-in (POST /api/auth/login/totp or /recovery-code)
   * under the new cookie that answer sets.
   */
  login(
    email: string,
    password: string,
    askCode: () => Promise<string>,
  ): Promise<{ user: SessionUser; cookie: string }>;
  logout(): Promise<void>;
  me(): Promise<{ user: SessionUser }>;
  listUsers(params: ListUsersParams): Promise<UserListResponse>;
  getUser(sub: string): Promise<{ user: AdminUser }>;
  createUser(body: CreateUserBody): Promise<{ user: AdminUser }>;
  updateUser(sub: string, body: UpdateUserBody): Promise<{ user: AdminUser }>;
  deleteUser(sub: string): Promise<{ user: AdminUser }>;
  /** POST /api/admin/users/{sub}/restore: undoes a soft delete within the grace period. */
  restoreUser(sub: string): Promise<{ user: AdminUser }>;
  /** DELETE /api/admin/users/{sub}/second-factors (docs/http-api.md, "For admins"). */
  resetSecondFactors(sub: string): Promise<void>;
  listEvents(params: ListEventsParams): Promise<EventListResponse>;
  /** POST /api/admin/users/{sub}/unlock (docs/http-api.md, "Login rate limit"): 204. */
  unlockUser(sub: string): Promise<void>;
  /** GET /api/admin/locked-users: the blocked ones among up to 100 subs. */
  lockedUsers(subs: string[]): Promise<LockedUsersResponse>;
  /** GET /api/admin/groups (docs/http-api.md, "Groups and access"). */
  listGroups(): Promise<GroupListResponse>;
  listGroupMembers(groupId: string, params: ListMembersParams): Promise<UserListResponse>;
  /** PUT /api/admin/groups/{id}/members/{sub}: 204, also when the user was in the group already. */
  addGroupMember(groupId: string, sub: string): Promise<void>;
  /** DELETE /api/admin/groups/{id}/members/{sub}: 204. */
  removeGroupMember(groupId: string, sub: string): Promise<void>;
  userGroups(sub: string): Promise<UserGroupsResponse>;
  checkAccess(clientId: string, sub: string): Promise<AccessDecisionResponse>;
}

export interface AdminClientOptions {
  /** The stored `session=…` cookie, or null before login. */
  cookie: string | null;
  /** Called when the server sends a new session cookie, so the caller can keep it. */
  onCookie?: (cookie: string) => Promise<void>;
}

/** The admin API (docs/http-api.md, "Admin API") as typed calls; answers are returned exactly as the server sent them. */
export function createAdminClient(baseUrl: string, options: AdminClientOptions): AdminClient {
  let cookie = options.cookie;

  async function call<T>(request: Omit<ApiRequest, 'cookie'>): Promise<T> {
    const answer = await sendRequest(baseUrl, { ...request, cookie });
    if (answer.sessionCookie && answer.sessionCookie !== cookie) {
      cookie = answer.sessionCookie;
      await options.onCookie?.(cookie);
    }
    return answer.body as T;
  }

  const userPath = (sub: string) => `/api/admin/users/${encodeURIComponent(sub)}`;
  const groupPath = (groupId: string) => `/api/admin/groups/${encodeURIComponent(groupId)}`;
  const memberPath = (groupId: string, sub: string) => `${groupPath(groupId)}/members/${encodeURIComponent(sub)}`;

  return {
    baseUrl,
    async login(email, password, askCode) {
      const answer = await sendRequest(baseUrl, {
        method: 'POST',
        path: '/api/auth/login',
        body: { email, password },
        cookie: null,
      });
      const body = answer.body as {
        user?: SessionUser;
        status?: string;
        factors?: string[];
        enrolment_required?: boolean;
      };
      if (!answer.sessionCookie)
        throw new CliError(`the server at ${baseUrl} accepted the login but issued no session cookie`);
      if (body.status !== 'second_factor_required') {
        if (!body.user) throw new CliError(`unexpected answer from ${baseUrl}: the login named no user`);
        cookie = answer.sessionCookie;
        return { user: body.user, cookie };
      }
      // The pending session is kept only if a code completes it.
      if (body.enrolment_required) {
        throw new CliError(
          `${email} must register a second factor first: sign in at ${baseUrl}/login to set one up, then log in here again`,
        );
      }
      if (!body.factors?.includes('totp')) {
        throw new CliError(
          `${email} confirms sign-ins with a passkey only, which a terminal cannot use: add an authenticator app on the account page, or use another admin account`,
        );
      }
      const code = await askCode();
      const path = /^[0-9]{6}$/.test(code) ? '/api/auth/login/totp' : '/api/auth/login/recovery-code';
      const completed = await sendRequest(baseUrl, {
        method: 'POST',
        path,
        body: { code },
        cookie: answer.sessionCookie,
      });
      const user = (completed.body as { user?: SessionUser }).user;
      if (!user) throw new CliError(`unexpected answer from ${baseUrl}: the second factor named no user`);
      // The second factor renews the session: the pending cookie stops working (docs/http-api.md "Session renewal").
      if (!completed.sessionCookie)
        throw new CliError(`the server at ${baseUrl} accepted the second factor but issued no session cookie`);
      cookie = completed.sessionCookie;
      return { user, cookie };
    },
    async logout() {
      await call({ method: 'POST', path: '/api/auth/logout' });
    },
    me: () => call({ method: 'GET', path: '/api/admin/me' }),
    listUsers: (params) => call({ method: 'GET', path: '/api/admin/users', query: { ...params } }),
    getUser: (sub) => call({ method: 'GET', path: userPath(sub) }),
    createUser: (body) => call({ method: 'POST', path: '/api/admin/users', body }),
    updateUser: (sub, body) => call({ method: 'PATCH', path: userPath(sub), body }),
    deleteUser: (sub) => call({ method: 'DELETE', path: userPath(sub) }),
    restoreUser: (sub) => call({ method: 'POST', path: `${userPath(sub)}/restore` }),
    async resetSecondFactors(sub) {
      await call({ method: 'DELETE', path: `${userPath(sub)}/second-factors` });
    },
    listEvents: (params) => call({ method: 'GET', path: '/api/admin/events', query: { ...params } }),
    async unlockUser(sub) {
      await call({ method: 'POST', path: `${userPath(sub)}/unlock` });
    },
    lockedUsers: (subs) => call({ method: 'GET', path: '/api/admin/locked-users', query: { sub: subs } }),
    listGroups: () => call({ method: 'GET', path: '/api/admin/groups' }),
    listGroupMembers: (groupId, params) =>
      call({ method: 'GET', path: `${groupPath(groupId)}/members`, query: { ...params } }),
    async addGroupMember(groupId, sub) {
      await call({ method: 'PUT', path: memberPath(groupId, sub) });
    },
    async removeGroupMember(groupId, sub) {
      await call({ method: 'DELETE', path: memberPath(groupId, sub) });
    },
    userGroups: (sub) => call({ method: 'GET', path: `${userPath(sub)}/groups` }),
    checkAccess: (clientId, sub) =>
      call({ method: 'GET', path: `/api/admin/clients/${encodeURIComponent(clientId)}/access`, query: { sub } }),
  };
}
