import type { I18nConfig } from '../config/types.js';

export interface LocaleHints {
  /** `?locale=` of the request: an explicit choice (the language switcher). */
  query?: string | null;
  /** The signed-in user's profile locale. */
  userLocale?: string | null;
  /** The relying party's `ui_locales` (OIDC Core 3.1.2.1): space-separated, in order of preference. */
  uiLocales?: string | null;
  /** The Accept-Language header. */
  acceptLanguage?: string | null;
}

/**
 * The locale a page or e-mail is written in: the first hint that names an
 * offered locale (`i18n.locales`), compared case-insensitively, a bare
 * language matching its first offered region (de → de-CH when only de-CH is
 * offered) and a region its language (de-AT → de); else the default.
 */
export function negotiateLocale(hints: LocaleHints, i18n: I18nConfig): string {
  const pick = (wanted: string | null | undefined) => matchOfferedLocale(wanted, i18n.locales);
  return (
    pick(hints.query) ??
    pick(hints.userLocale) ??
    (hints.uiLocales ?? '')
      .split(' ')
      .map(pick)
      .find((locale) => locale !== null) ??
    acceptedLanguages(hints.acceptLanguage)
      .map(pick)
      .find((locale) => locale !== null) ??
    i18n.defaultLocale
  );
}

/** The offered locale a wanted tag names (the rules above), or null: also how a page tells an explicit `?locale=` choice from a fallback. */
export function matchOfferedLocale(wanted: string | null | undefined, offered: readonly string[]): string | null {
  if (!wanted) return null;
  const tag = wanted.trim().toLowerCase();
  if (!tag || tag === '*') return null;
  const exact = offered.find((locale) => locale.toLowerCase() === tag);
  if (exact) return exact;
  const language = tag.split('-')[0];
  return (
    offered.find((locale) => locale.toLowerCase() === language) ??
    offered.find((locale) => locale.toLowerCase().split('-')[0] === language) ??
    null
  );
}

/** Accept-Language ranges by descending weight (RFC 9110 12.5.4); q=0 means "not this one". */
function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 32)
    .map((part, index) => {
      const [range, ...parameters] = part.trim().split(';');
      const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { range: range.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.range && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.range);
}
