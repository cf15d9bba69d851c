/**
 * The API's error codes (DESIGN.md 11, SPEC.md 7) as sentences for people:
 * the pages never show a raw code or the API's English message. `fallback`
 * stands in for a code this list does not know.
 */
export const errors = {
  fallback: 'Something went wrong. Please try again.',
  NETWORK_ERROR: 'The server could not be reached. Check your connection and try again.',
  INVALID_CREDENTIALS: 'The email or password is incorrect.',
  TOO_MANY_REQUESTS: 'Too many attempts. Try again later.',
  EMAIL_NOT_VERIFIED: 'Confirm your email address first: open the link we sent you.',
  REGISTRATION_DISABLED: 'New accounts cannot be created here.',
  EMAIL_NOT_ALLOWED: 'This email address cannot be used to create an account here.',
  EMAIL_ALREADY_EXISTS: 'An account with this email address already exists. Sign in instead.',
  TERMS_NOT_ACCEPTED: 'Accept the required terms to continue.',
  PASSWORD_TOO_SHORT: 'This password is too short.',
  INVALID_TOKEN: 'This link is invalid, has expired or was already used.',
  USER_NOT_EDITABLE: 'Your organisation manages this, so it cannot be changed here.',
  ACCOUNT_DELETION_DISABLED: 'Deleting your own account is not enabled on this service.',
  REAUTHENTICATION_REQUIRED: 'Sign in again to confirm. Without a password, deleting your account needs a sign-in within the last 10 minutes.',
  EMAIL_DISABLED: 'This service cannot send email. Ask your administrator for help.',
  VALIDATION_ERROR: 'Some of the details are not valid. Check them and try again.',
  UNAUTHORIZED: 'You are not signed in any more. Sign in again.',
  ORIGIN_NOT_ALLOWED: 'This request came from another site and was refused.',
  INVALID_RETURN_TO: 'This page was opened without a valid request. Go back to the application and try again.',
  PAYLOAD_TOO_LARGE: 'Some of the details are too long.',
  INTERNAL_ERROR: 'Something went wrong on our side. Try again in a moment.',
  SERVICE_UNAVAILABLE: 'The service is unavailable right now. Try again in a moment.',
  UPSTREAM_ERROR: 'The sign-in with that provider did not work. Try again, or sign in another way.',
  INVALID_STATE: 'That sign-in took too long or was opened in another browser. Start it again.',
  PROVIDER_NOT_FOUND: 'This way of signing in is not available.',
  UPSTREAM_EMAIL_MISSING: 'Your account at that provider does not share an email address, so it cannot be used here.',
  LINK_REQUIRED: 'An account with this email address already exists. Sign in to it to connect {provider}.',
  CONNECTION_IN_USE: 'That account at {provider} is already connected to another user.',
  ALREADY_CONNECTED: 'Your account is already connected to another account at {provider}. Disconnect it first.',
  ACCOUNT_DELETED: 'The account this sign-in belongs to has been deleted.',
  CONNECTION_NOT_FOUND: 'This provider is not connected to your account.',
  LAST_SIGN_IN_METHOD: 'This is your only way to sign in. Set a password or connect another provider first.',
};
