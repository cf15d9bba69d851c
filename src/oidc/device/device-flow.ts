/** The Device Authorization Grant's constants (RFC 8628; docs/oidc.md, "Device flow"). */
export const deviceCodeGrantType = 'urn:ietf:params:oauth:grant-type:device_code';

/** RFC 8628 §3.2 expires_in: a short life keeps a phished user code useless soon. */
export const deviceCodeTtlSeconds = 600;

/** RFC 8628 §3.2 interval, and what each slow_down adds (§3.5). */
export const pollIntervalSeconds = 5;
export const slowDownSeconds = 5;

/** The verification_uri's path: the page that asks for the user code. */
export const devicePagePath = '/device';

/** Where the page answers when every sign-in step has passed or the request ended. */
export const deviceDonePath = '/device/done';
