// @ts-check
/**
 * @simplewebauthn/browser for the pages (docs/http-api.md, "Second factors"), loaded on demand
 * from this server (src/http/routes/page-routes.ts serves the installed
 * package's ES modules under /ui/vendor/webauthn/: the pages run scripts of
 * their own origin only). Typed here with the few calls the pages make.
 *
 * @typedef {{
 *   startRegistration(options: { optionsJSON: unknown }): Promise<unknown>,
 *   startAuthentication(options: { optionsJSON: unknown, useBrowserAutofill?: boolean }): Promise<unknown>,
 *   browserSupportsWebAuthn(): boolean,
 *   browserSupportsWebAuthnAutofill(): Promise<boolean>,
 *   WebAuthnAbortService: { cancelCeremony(): void },
 * }} WebAuthnBrowser
 */

/** @type {Promise<WebAuthnBrowser> | undefined} */
let loading;

/**
 * A literal address: the build's bundler (scripts/bundle-ui.mjs) puts the
 * package into the page's bundle from it; unbundled, the browser fetches
 * it from idp. tsconfig.ui.json maps it to the package's types.
 * @returns {Promise<WebAuthnBrowser>}
 */
export function webauthn() {
  loading ??= import('/ui/vendor/webauthn/index.js');
  return loading;
}

/**
 * Whether the authenticator already holds one of the account's passkeys:
 * the options list them (excludeCredentials), and WebAuthn then refuses
 * with InvalidStateError (Web Authentication Level 3, §6.3.2 step 3).
 * @param {unknown} error
 */
export function alreadyRegistered(error) {
  const failure = /** @type {{ name?: unknown, code?: unknown }} */ (error);
  return failure?.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || failure?.name === 'InvalidStateError';
}

/**
 * Whether the person dismissed the browser's passkey dialog, or it timed
 * out (WebAuthn's NotAllowedError), or another ceremony replaced it
 * (AbortError): not a failure to report as one.
 * @param {unknown} error
 */
export function wasDismissed(error) {
  const name = /** @type {{ name?: unknown, cause?: { name?: unknown } }} */ (error)?.name;
  const cause = /** @type {{ cause?: { name?: unknown } }} */ (error)?.cause?.name;
  return (
    ['NotAllowedError', 'AbortError'].includes(String(name)) ||
    ['NotAllowedError', 'AbortError'].includes(String(cause)) ||
    /** @type {{ code?: unknown }} */ (error)?.code === 'ERROR_CEREMONY_ABORTED'
  );
}
