/** Locales idp has strings for; a configured locale outside this list falls back to English. */
export const shippedLocales = ['en', 'de'] as const;
export type ShippedLocale = (typeof shippedLocales)[number];

export function isShippedLocale(locale: string): locale is ShippedLocale {
  return (shippedLocales as readonly string[]).includes(locale);
}
