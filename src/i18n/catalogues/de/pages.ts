import type { pages as reference } from '../en/pages.js';

export const pages: typeof reference = {
  languageLabel: 'Sprache',
};
