import { CliError } from '../output.js';
import { sendRequest, type ApiRequest } from './send-request.js';
import type {
  AdminUser,
  CreateUserBody,
  EventListResponse,
  ListEventsParams,
  ListUsersParams,
  SessionUser,
  UpdateUserBody,
  UserListResponse,
} from './admin-api-types.js';

export interface AdminClient {
  readonly baseUrl: string;
  /** POST /api/auth/login (DESIGN.md 6): the session user and the `session` cookie to keep. */
  login(email: string, password: string): Promise<{ user: SessionUser; cookie: string }>;
  logout(): Promise<void>;
  me(): Promise<{ user: SessionUser }>;
  listUsers(params: ListUsersParams): Promise<UserListResponse>;
  getUser(sub: string): Promise<{ user: AdminUser }>;
  createUser(body: CreateUserBody): Promise<{ user: AdminUser }>;
  updateUser(sub: string, body: UpdateUserBody): Promise<{ user: AdminUser }>;
  deleteUser(sub: string): Promise<{ user: AdminUser }>;
  listEvents(params: ListEventsParams): Promise<EventListResponse>;
  /** POST /api/admin/users/{sub}/unlock (DESIGN.md 11): 204. */
  unlockUser(sub: string): Promise<void>;
}

export interface AdminClientOptions {
  /** The stored `session=…` cookie, or null before login. */
  cookie: string | null;
  /** Called when the server sends a new session cookie, so the caller can keep it. */
  onCookie?: (cookie: string) => Promise<void>;
}

/** The admin API of SPEC.md 4 as typed calls; answers are returned exactly as the server sent them. */
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

  return {
    baseUrl,
    async login(email, password) {
      const answer = await sendRequest(baseUrl, { method: 'POST', path: '/api/auth/login', body: { email, password }, cookie: null });
      const body = answer.body as { user?: SessionUser; status?: string; factors?: string[] };
      if (body.status === 'second_factor_required') {
        // The pending session the server set is useless to us: it is not stored.
        const factors = body.factors?.length ? body.factors.join(', ') : 'none registered yet';
        throw new CliError(`${email} must confirm the sign-in with a second factor (${factors}), which idp admin cannot do yet: use an admin account without a required second factor`);
      }
      if (!answer.sessionCookie || !body.user) throw new CliError(`the server at ${baseUrl} accepted the login but issued no session cookie`);
      cookie = answer.sessionCookie;
      return { user: body.user, cookie };
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
    listEvents: (params) => call({ method: 'GET', path: '/api/admin/events', query: { ...params } }),
    async unlockUser(sub) {
      await call({ method: 'POST', path: `${userPath(sub)}/unlock` });
    },
  };
}
