import Joi from 'joi';
import type { RouteSpec } from '../route-definition.js';
import { optionalSession } from './authorize-routes.js';
import { addressOf } from '../client-address.js';
import { pageContextOf, pageResponse } from '../page-context.js';
import { payloadOf } from '../payload-of.js';
import { readClientCredentials } from '../../clients/index.js';
import { handleDeviceAuthorization, verifyDevice } from '../../oidc/device/index.js';
import type { RawAuthorizationParams } from '../../oidc/authorize/index.js';
import { renderDeviceDonePage, renderDevicePage, stringParam } from '../../web/index.js';
import { clientAuthParams, formParam, noStoreHeaders, oauthErrorResponse } from '../schemas/oauth-schemas.js';

/**
 * The Device Authorization Grant (RFC 8628; docs/oidc.md, "Device flow"):
 * the device authorization endpoint (client-authenticated, like the token
 * endpoint), the device verification that /device sends the user code to
 * (a navigation with the optional session, like /oauth2/authorize), and the
 * two pages of the built-in UI.
 */
const deviceAuthorizationResponse = Joi.object({
  device_code: Joi.string().required().description('The secret the device polls the token endpoint with'),
  user_code: Joi.string().required().description('8 letters shown as XXXX-XXXX, for the user to type on /device'),
  verification_uri: Joi.string().required().description('{base_url}/device'),
  verification_uri_complete: Joi.string().required().description('verification_uri with ?user_code='),
  expires_in: Joi.number().integer().required().description('600 seconds'),
  interval: Joi.number().integer().required().description('Seconds between polls: 5'),
}).label('DeviceAuthorizationResponse');

export const deviceAuthorizationRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'Device authorization endpoint (RFC 8628)',
  description:
    'Client authentication as at the token endpoint (public clients send client_id). The client needs the grant type urn:ietf:params:oauth:grant-type:device_code; scope is checked as at the authorization endpoint (openid required). The device then polls POST /oauth2/token with that grant type and device_code. See docs/oidc.md, "Device flow".',
  validate: {
    payload: Joi.object({
      scope: formParam('Space-separated; must include openid; scopes the client may not have are dropped'),
      ...clientAuthParams,
    }).label('DeviceAuthorizationRequest'),
  },
  responses: {
    200: { description: 'RFC 8628 §3.2 response', schema: deviceAuthorizationResponse },
    400: oauthErrorResponse('invalid_request, unauthorized_client, invalid_scope (RFC 6749 §5.2)'),
    401: oauthErrorResponse('invalid_client (with WWW-Authenticate: Basic when Basic was used)'),
  },
  hapiOptions: { payload: { allow: 'application/x-www-form-urlencoded' } },
  handler: (deps) => async (request, h) => {
    const p = payloadOf(request) as Record<string, string | undefined>;
    const authorization = request.headers.authorization as string | undefined;
    const credentials = readClientCredentials(authorization, p.client_id, p.client_secret);
    const response = await handleDeviceAuthorization({ credentials, scope: p.scope }, deps.protocol.engine);
    const reply = h.response(response);
    for (const [name, value] of Object.entries(noStoreHeaders)) reply.header(name, value);
    return reply;
  },
};

const value = Joi.alternatives(Joi.string().allow(''), Joi.array().items(Joi.string().allow('')));

export const deviceVerificationRoute: RouteSpec = {
  protocol: true,
  tags: ['OpenID'],
  summary: 'Device verification (RFC 8628 §3.3)',
  description:
    "Where /device sends the user code: a pending code runs the sign-in steps (sign-in, second factor, access, terms, consent, which is asked every time) with the browser's session, each page coming back here; then the request is approved (or denied) and the browser goes to /device/done. A wrong code goes back to /device?error=INVALID_USER_CODE; too many wrong codes from one address answer error=TOO_MANY_REQUESTS&retry_after=seconds.",
  validate: {
    query: Joi.object({
      user_code: value.description('The code as typed: case, dashes and spaces are ignored'),
    })
      .unknown(true)
      .label('DeviceVerificationRequest'),
  },
  responses: {
    302: { description: 'To a sign-in page, to /device/done, or back to /device with the error' },
  },
  handler: (deps) => async (request, h) => {
    const outcome = await verifyDevice(
      {
        params: request.query as RawAuthorizationParams,
        session: await optionalSession(request),
        clientAddress: addressOf(request),
      },
      deps.protocol.device,
    );
    return h.redirect(outcome.location).code(302).header('cache-control', 'no-store');
  },
};

const retryAfter = /^\d{1,6}$/;

/** /device: the page that asks for the user code (src/web/pages/device-page.ts). */
export const devicePageRoute: RouteSpec = {
  tags: [],
  summary: 'Connect a device: enter its user code',
  hidden: true,
  responses: { 200: { description: 'The page', contentType: 'text/html' } },
  handler: (deps) => (request, h) => {
    const code = stringParam(request.query.error);
    const seconds = stringParam(request.query.retry_after);
    const error =
      code === 'INVALID_USER_CODE' || code === 'TOO_MANY_REQUESTS'
        ? { code, retryAfterSeconds: seconds !== null && retryAfter.test(seconds) ? Number(seconds) : null }
        : null;
    const page = renderDevicePage(pageContextOf(deps, request), {
      userCode: stringParam(request.query.user_code),
      error,
    });
    return pageResponse(h, page);
  },
};

/** /device/done?result=approved|denied: the end of the device's sign-in. */
export const deviceDonePageRoute: RouteSpec = {
  tags: [],
  summary: 'A device was connected, or not',
  hidden: true,
  responses: { 200: { description: 'The page', contentType: 'text/html' } },
  handler: (deps) => (request, h) => {
    const result = stringParam(request.query.result);
    if (result !== 'approved' && result !== 'denied')
      return h.redirect('/device').code(302).header('cache-control', 'no-store');
    return pageResponse(h, renderDeviceDonePage(pageContextOf(deps, request), result));
  },
};
