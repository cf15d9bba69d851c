import { admin } from './admin.js';
import { errors } from './errors.js';
import { mail } from './mail.js';
import { pages } from './pages.js';

export const de = { pages, mail, errors, admin };
