import type { errors as reference } from '../en/errors.js';

export const errors: typeof reference = {
  fallback: 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',
  NETWORK_ERROR: 'Der Server ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  INVALID_CREDENTIALS: 'E-Mail-Adresse oder Passwort ist falsch.',
  TOO_MANY_REQUESTS: 'Zu viele Versuche. Bitte versuchen Sie es später erneut.',
  EMAIL_NOT_VERIFIED:
    'Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse: Öffnen Sie den Link, den wir Ihnen geschickt haben.',
  REGISTRATION_DISABLED: 'Hier können keine neuen Konten angelegt werden.',
  EMAIL_NOT_ALLOWED: 'Mit dieser E-Mail-Adresse kann hier kein Konto angelegt werden.',
  EMAIL_ALREADY_EXISTS: 'Zu dieser E-Mail-Adresse gibt es bereits ein Konto. Bitte melden Sie sich an.',
  TERMS_NOT_ACCEPTED: 'Bitte akzeptieren Sie die erforderlichen Bedingungen, um fortzufahren.',
  PASSWORD_TOO_SHORT: 'Dieses Passwort ist zu kurz.',
  INVALID_TOKEN: 'Dieser Link ist ungültig, abgelaufen oder wurde bereits verwendet.',
  USER_NOT_EDITABLE: 'Dies wird von Ihrer Organisation verwaltet und kann hier nicht geändert werden.',
  ACCOUNT_DELETION_DISABLED: 'Das Löschen des eigenen Kontos ist bei diesem Dienst nicht aktiviert.',
  REAUTHENTICATION_REQUIRED:
    'Bitte melden Sie sich erneut an, um zu bestätigen. Ohne Passwort setzt das Löschen Ihres Kontos eine Anmeldung innerhalb der letzten 10 Minuten voraus.',
  EMAIL_DISABLED: 'Dieser Dienst kann keine E-Mails versenden. Bitte wenden Sie sich an Ihre Administration.',
  INVALID_CODE:
    'Dieser Code ist nicht richtig oder wurde bereits verwendet. Geben Sie den Code ein, den die App jetzt anzeigt.',
  TOTP_ALREADY_REGISTERED: 'Eine Authenticator-App ist bereits eingerichtet.',
  TOTP_NOT_PENDING: 'Die Einrichtung wurde unterbrochen. Beginnen Sie sie erneut.',
  TOTP_NOT_REGISTERED: 'Es ist keine Authenticator-App eingerichtet.',
  SECOND_FACTOR_REQUIRED:
    'Ihr Konto muss einen zweiten Schritt behalten. Fügen Sie einen weiteren hinzu, bevor Sie diesen entfernen.',
  PASSKEY_NOT_FOUND: 'Diesen Passkey gibt es nicht mehr. Laden Sie die Seite neu.',
  PASSKEY_ALREADY_REGISTERED: 'Dieser Passkey ist bereits registriert.',
  PASSKEYS_DISABLED: 'Passkeys sind bei diesem Dienst nicht verfügbar.',
  INVALID_PASSKEY: 'Der Passkey konnte nicht geprüft werden. Bitte versuchen Sie es erneut.',
  STEP_UP_NOT_NEEDED: 'Sie haben diese Anmeldung bereits mit einem zweiten Schritt bestätigt.',
  SIGN_IN_NOT_PENDING: 'Sie sind bereits angemeldet.',
  VALIDATION_ERROR: 'Einige Angaben sind ungültig. Bitte prüfen Sie sie und versuchen Sie es erneut.',
  UNAUTHORIZED: 'Sie sind nicht mehr angemeldet. Bitte melden Sie sich erneut an.',
  ORIGIN_NOT_ALLOWED: 'Diese Anfrage kam von einer anderen Website und wurde abgelehnt.',
  INVALID_USER_CODE: 'Dieser Code ist nicht gültig. Prüfen Sie ihn auf Ihrem Gerät; ein Code verfällt nach 10 Minuten.',
  INVALID_RETURN_TO:
    'Diese Seite wurde ohne gültige Anfrage geöffnet. Kehren Sie zur Anwendung zurück und versuchen Sie es erneut.',
  PAYLOAD_TOO_LARGE: 'Einige Angaben sind zu lang.',
  INTERNAL_ERROR: 'Bei uns ist etwas schiefgelaufen. Bitte versuchen Sie es gleich noch einmal.',
  SERVICE_UNAVAILABLE: 'Der Dienst ist gerade nicht verfügbar. Bitte versuchen Sie es gleich noch einmal.',
  UPSTREAM_ERROR:
    'Die Anmeldung über diesen Anbieter hat nicht funktioniert. Versuchen Sie es erneut oder melden Sie sich auf anderem Weg an.',
  INVALID_STATE:
    'Diese Anmeldung hat zu lange gedauert oder wurde in einem anderen Browser geöffnet. Bitte starten Sie sie erneut.',
  PROVIDER_NOT_FOUND: 'Diese Anmeldemöglichkeit ist nicht verfügbar.',
  UPSTREAM_EMAIL_MISSING:
    'Ihr Konto bei diesem Anbieter gibt keine E-Mail-Adresse weiter und kann deshalb hier nicht verwendet werden.',
  LINK_REQUIRED:
    'Ein Konto mit dieser E-Mail-Adresse besteht bereits. Melden Sie sich dort an, um {provider} zu verbinden.',
  CONNECTION_IN_USE: 'Dieses Konto bei {provider} ist bereits mit einem anderen Benutzer verbunden.',
  ALREADY_CONNECTED:
    'Ihr Konto ist bereits mit einem anderen Konto bei {provider} verbunden. Trennen Sie diese Verbindung zuerst.',
  ACCOUNT_DELETED: 'Das Konto, zu dem diese Anmeldung gehört, wurde gelöscht.',
  CONNECTION_NOT_FOUND: 'Dieser Anbieter ist nicht mit Ihrem Konto verbunden.',
  LAST_SIGN_IN_METHOD:
    'Dies ist Ihre einzige Anmeldemöglichkeit. Legen Sie zuerst ein Passwort fest oder verbinden Sie einen weiteren Anbieter.',
  ACCOUNT_NOT_REMEMBERED: 'Dieses Konto ist in diesem Browser nicht mehr gespeichert. Melden Sie sich erneut damit an.',
  CONSENT_NOT_FOUND: 'Diese Anwendung hat keinen Zugriff mehr auf Ihr Konto. Laden Sie die Seite neu.',
  TERMS_NOT_FOUND: 'Diese Bedingungen gibt es nicht mehr. Laden Sie die Seite neu.',
  TERMS_VERSION_MISMATCH:
    'Diese Bedingungen wurden gerade geändert. Laden Sie die Seite neu und lesen Sie die neue Fassung.',
};
