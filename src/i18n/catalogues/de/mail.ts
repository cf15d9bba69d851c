import type { mail as reference } from '../en/mail.js';

export const mail: typeof reference = {
  signature: 'Ihr {brand}-Team',
  greeting: 'Guten Tag,',
  linkFallback: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diese Adresse in Ihren Browser:',
  emailVerification: {
    subject: 'Bestätigen Sie Ihre E-Mail-Adresse für {brand}',
    intro: 'Bitte bestätigen Sie, dass {email} Ihre E-Mail-Adresse für {brand} ist.',
    action: 'E-Mail-Adresse bestätigen',
    expiry: 'Der Link kann einmal verwendet werden und läuft in {duration} ab.',
    notYou: 'Falls Sie kein Konto bei {brand} angelegt haben, können Sie diese E-Mail ignorieren.',
  },
  passwordReset: {
    subject: 'Ihr Passwort für {brand} zurücksetzen',
    intro:
      'Für das {brand}-Konto von {email} wurde ein neues Passwort angefordert. Über den folgenden Link wählen Sie es.',
    action: 'Neues Passwort wählen',
    expiry:
      'Der Link kann einmal verwendet werden und läuft in {duration} ab. Mit dem neuen Passwort werden Sie überall abgemeldet.',
    notYou:
      'Falls Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren: Ihr Passwort bleibt unverändert.',
  },
};
