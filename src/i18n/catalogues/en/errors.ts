/** The API's error codes as sentences for people (the pages never show a raw code). */
export const errors = {
  NETWORK_ERROR: 'The server could not be reached. Check your connection and try again.',
};
