/** Strings of the e-mails idp sends (src/mail). */
export const mail = {
  signature: 'The {brand} team',
};
