import { ApiError } from '../../api-error.js';
import type { RouteSpec } from '../route-definition.js';
import { setSessionCookie } from '../auth/cookie-session-auth.js';
import { addressOf } from '../client-address.js';
import { formField } from '../console-access.js';
import { pageContextOf, pageResponse } from '../page-context.js';
import { emailSchema } from '../schemas/user-schemas.js';
import { renderSetupPage, renderSetupUnavailablePage, stringParam } from '../../web/index.js';

const page = (summary: string, handler: RouteSpec['handler']): RouteSpec => ({
  tags: [],
  summary,
  hidden: true,
  responses: { 200: { description: 'The page', contentType: 'text/html' } },
  handler,
});

/** GET /setup?token=…: the first admin's form, or 404 when the link cannot be used (FirstAdminSetup.usable). */
export const setupPageRoute = page('Create the first admin', (deps) => async (request, h) => {
  const context = pageContextOf(deps, request);
  const token = stringParam(request.query.token);
  if (token === null || !(await deps.admin.firstAdmin.usable(token)))
    return pageResponse(h, renderSetupUnavailablePage(context), 404);
  return pageResponse(h, renderSetupPage(context, { token }));
});

/**
 * POST /setup: creates the first admin (FirstAdminSetup.complete), sets the
 * session cookie and opens /admin (or the second factor's enrolment first,
 * when auth.second_factor covers admins). The route applies the Origin rule
 * although it has no session yet: a page of another origin cannot post it.
 */
export const setupPostRoute: RouteSpec = {
  ...page('Create the first admin', (deps) => async (request, h) => {
    const context = pageContextOf(deps, request);
    const token = formField(request, 'token') ?? '';
    const email = (formField(request, 'email') ?? '').trim();
    const again = (errorCode: string, status: number) =>
      pageResponse(h, renderSetupPage(context, { token, email, errorCode }), status);
    if (emailSchema.validate(email).error) return again('INVALID_EMAIL', 400);
    try {
      const created = await deps.admin.firstAdmin.complete(
        { token, email, password: formField(request, 'password') ?? '' },
        { clientAddress: addressOf(request) },
      );
      setSessionCookie(h, created.sessionId);
      const next = created.secondFactorPending ? '/login/second-factor?return_to=%2Fadmin' : '/admin';
      return h.redirect(next).code(303).header('cache-control', 'no-store');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'SETUP_NOT_AVAILABLE') return pageResponse(h, renderSetupUnavailablePage(context), 404);
      return again(error.code, error.status);
    }
  }),
  checkOrigin: true,
};
