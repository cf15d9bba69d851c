import type { errors as reference } from '../en/errors.js';

export const errors: typeof reference = {
  NETWORK_ERROR: 'Der Server ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  ACCOUNT_DELETION_DISABLED: 'Das Löschen des eigenen Kontos ist bei diesem Dienst nicht aktiviert.',
  REAUTHENTICATION_REQUIRED: 'Bitte melden Sie sich erneut an, um zu bestätigen. Ohne Passwort setzt das Löschen Ihres Kontos eine Anmeldung innerhalb der letzten 10 Minuten voraus.',
};
