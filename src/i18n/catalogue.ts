import { de } from './catalogues/de/index.js';
import { en } from './catalogues/en/index.js';
import { isShippedLocale, type ShippedLocale } from './locales.js';

/** English is the reference: every other catalogue must have exactly its keys (the compiler checks). */
export type Catalogue = typeof en;

const catalogues: Record<ShippedLocale, Catalogue> = { en, de };

/**
 * The catalogue of a locale: an exact match, then its language (de-AT → de),
 * then English, so a configured locale without strings still renders.
 */
export function catalogueFor(locale: string): Catalogue {
  if (isShippedLocale(locale)) return catalogues[locale];
  const language = locale.split('-')[0].toLowerCase();
  return isShippedLocale(language) ? catalogues[language] : en;
}
