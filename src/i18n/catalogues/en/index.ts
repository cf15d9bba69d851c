import { admin } from './admin.js';
import { errors } from './errors.js';
import { mail } from './mail.js';
import { pages } from './pages.js';

export const en = { pages, mail, errors, admin };
