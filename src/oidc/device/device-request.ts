import { deviceVerificationPath, interactionParams, type PendingAuthorization } from '../../interaction/index.js';
import type { DeviceCodeRecord } from '../../model/index.js';
import type { AuthorizeClient, RawAuthorizationParams } from '../authorize/types.js';

const epochMs = /^\d{1,15}$/;

/** The single string value of a parameter; a repeated or absent one is none. */
export function singleParam(params: RawAuthorizationParams, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * A device's request as the sign-in steps read it: the stored request's
 * client and scopes, no prompt (consent is asked of every device request
 * by the consent step itself), and the interaction parameters this server
 * added on the way (docs/oidc.md), which only make it stricter or end it.
 * Its params are the user code and those, nothing else: the path back to
 * it (deviceVerificationPath) is rebuilt from them.
 */
export function deviceRequest(
  record: DeviceCodeRecord,
  client: AuthorizeClient,
  params: RawAuthorizationParams,
): PendingAuthorization {
  const kept: Record<string, string> = { user_code: record.userCode };
  for (const name of Object.values(interactionParams)) {
    const value = singleParam(params, name);
    if (value !== undefined) kept[name] = value;
  }
  const authAfter = singleParam(params, interactionParams.authAfter);
  return {
    params: kept,
    client: { clientId: client.clientId, name: client.name, skipConsent: client.skipConsent, access: client.access },
    scopes: record.scopes,
    prompt: new Set(),
    maxAge: null,
    authAfter: authAfter !== undefined && epochMs.test(authAfter) ? Number(authAfter) : null,
    consentDenied: kept[interactionParams.consentDenied] === 'true',
    termsDeclined: kept[interactionParams.termsDeclined] === 'true',
    accessDenied: kept[interactionParams.accessDenied] === 'true',
    // A device request has no acr_values or claims parameter (RFC 8628 §3.1 names scope only).
    claimScopes: [],
    requiredAcr: null,
    device: { userCode: record.userCode, confirmedBy: record.confirmedBy },
  };
}

/** The query of a same-origin path to the device verification, or null when it points elsewhere. */
export function deviceVerificationParams(returnTo: string): RawAuthorizationParams | null {
  const url = new URL(returnTo, 'http://return-to.invalid');
  if (url.pathname !== deviceVerificationPath) return null;
  const params: RawAuthorizationParams = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    params[name] = values.length === 1 ? values[0] : values;
  }
  return params;
}
