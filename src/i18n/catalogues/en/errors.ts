/** The API's error codes as sentences for people (the pages never show a raw code). */
export const errors = {
  NETWORK_ERROR: 'The server could not be reached. Check your connection and try again.',
  ACCOUNT_DELETION_DISABLED: 'Deleting your own account is not enabled on this service.',
  REAUTHENTICATION_REQUIRED: 'Sign in again to confirm. Without a password, deleting your account needs a sign-in within the last 10 minutes.',
};
