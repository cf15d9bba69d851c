/**
 * The admin API's rules (docs/http-api.md, "Admin API"): listing, creating, updating
 * and soft-deleting users, unlocking an account blocked by the login rate
 * limit, group memberships and access checks (src/access decides), and
 * the user views it defines.
 * The HTTP routes (src/http/routes/admin-routes.ts) only parse and render;
 * every rule, such as "config-managed users are read-only", lives here.
 */
export { createAdminUsersService, type AdminUsersService } from './admin-users-service.js';
export { createUserViewService, type UserViewService } from './user-view-service.js';
export { createAdminEventsService, type AdminEventsService } from './admin-events-service.js';
export { createAccountUnlock, type AccountUnlock } from './unlock-account.js';
export { createAdminGroupsService, type AdminGroupsService } from './admin-groups-service.js';
export { createAdminAccessCheck, type AdminAccessCheck } from './admin-access-check.js';
