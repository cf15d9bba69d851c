import type { SigningAlgorithm } from '../model/index.js';

/**
 * Every algorithm idp signs with, RS256 first: OIDC Core §15.1 and
 * Discovery §3 require RS256 of every provider, and Registration §2 makes
 * it the ID token algorithm of a client that names none, so an RS256 key
 * always exists beside the others.
 */
export const signingAlgorithms: readonly SigningAlgorithm[] = ['RS256', 'ES256', 'EdDSA'];
