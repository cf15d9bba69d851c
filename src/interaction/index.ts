/**
 * The interaction between an authorization request and its answer
 * (DESIGN.md 7): the authorization endpoint sends a browser without a
 * session to /login?return_to=…, and one whose consent is missing to
 * /consent?return_to=…; those pages talk to the JSON API (POST
 * /api/auth/login, GET and POST /api/consent) and then go back to
 * return_to, a same-origin path checked by ./return-to.ts.
 */
export { isSafeReturnTo } from './return-to.js';
export { createConsentService, type ConsentService, type ConsentPrompt, type ConsentDecision } from './consent-service.js';
export { describeScope } from './scope-descriptions.js';
export {
  createRememberedAccounts,
  rememberedAccountsCookie,
  type RememberedAccounts,
  type RememberedAccount,
} from './remembered-accounts.js';
