/** Strings of the built-in pages (src/web). */
export const pages = {
  languageLabel: 'Language',
};
