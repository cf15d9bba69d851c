/** Strings of the e-mails idp sends (src/mail). `{duration}` is a localized length of time ("24 hours"). */
export const mail = {
  signature: 'The {brand} team',
  greeting: 'Hello,',
  linkFallback: 'If the button does not work, copy this address into your browser:',
  emailVerification: {
    subject: 'Confirm your e-mail address for {brand}',
    intro: 'Please confirm that {email} is your e-mail address for {brand}.',
    action: 'Confirm e-mail address',
    expiry: 'The link works once and expires in {duration}.',
    notYou: 'If you did not create an account with {brand}, you can ignore this e-mail.',
  },
  passwordReset: {
    subject: 'Reset your {brand} password',
    intro:
      'Someone asked to reset the password of the {brand} account of {email}. Choose a new password with the link below.',
    action: 'Choose a new password',
    expiry: 'The link works once and expires in {duration}. Choosing a new password signs you out everywhere.',
    notYou: 'If you did not ask for this, you can ignore this e-mail: your password stays as it is.',
  },
};
