import type { mail as reference } from '../en/mail.js';

export const mail: typeof reference = {
  signature: 'Ihr {brand}-Team',
};
