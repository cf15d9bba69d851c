import type { errors as reference } from '../en/errors.js';

export const errors: typeof reference = {
  NETWORK_ERROR: 'Der Server ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
};
