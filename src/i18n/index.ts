/**
 * The words of the built-in pages and e-mails, one catalogue per shipped
 * locale (catalogues/<locale>/: pages, mail, errors), and the choice of a
 * locale for a request: `?locale=`, then the user's profile, then
 * Accept-Language, then `i18n.default_locale`, among `i18n.locales`.
 */
export { catalogueFor, type Catalogue } from './catalogue.js';
export { formatMessage } from './format-message.js';
export { isShippedLocale, shippedLocales, type ShippedLocale } from './locales.js';
export { matchOfferedLocale, negotiateLocale, type LocaleHints } from './negotiate-locale.js';
