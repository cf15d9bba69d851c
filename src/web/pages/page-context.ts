import { createHash } from 'node:crypto';
import type { Config, TermContent } from '../../config/types.js';
import { catalogueFor, matchOfferedLocale, negotiateLocale, type Catalogue } from '../../i18n/index.js';
import { accentPalette } from './accent-palette.js';

/** What a page knows of the request that asked for it (src/http builds it). */
export interface PageRequest {
  path: string;
  /** The query as received; only string values are read. */
  query: Readonly<Record<string, unknown>>;
  acceptLanguage?: string | null;
  /** The signed-in user's profile locale, when someone is signed in. */
  userLocale?: string | null;
  /**
   * False for a page that answers a form post (the signed-out page): its
   * address cannot be loaded again, so it has no language switcher.
   */
  reloadable?: boolean;
}

export interface TermLink {
  title: string;
  url: string;
}

/** Everything the frame and a page need to render, in the request's locale. */
export interface PageContext {
  config: Config;
  /** The negotiated locale (`<html lang>`). */
  locale: string;
  text: Catalogue;
  /** The explicit `?locale=` choice: links to other built-in pages carry it on. */
  chosenLocale: string | null;
  /** This page's path and query (without `locale`), for the language switcher; null without one. */
  here: { path: string; query: [string, string][] } | null;
  termLinks: TermLink[];
  /** The generated accent stylesheet (GET /ui/theme.css), or null for the built-in colours. */
  themeHref: string | null;
  /** The page scripts the build bundled (/ui/bundle/<script>, one request); others load as modules. */
  scriptBundles: ReadonlySet<string>;
}

/**
 * The `ui_locales` of the authorization request an interaction page returns
 * to: every page of a sign-in carries it in `return_to`, so the relying
 * party's wish holds from the first page to the consent.
 */
function uiLocalesOf(returnTo: unknown): string | null {
  if (typeof returnTo !== 'string' || !returnTo.startsWith('/oauth2/authorize?')) return null;
  return new URLSearchParams(returnTo.slice(returnTo.indexOf('?') + 1)).get('ui_locales');
}

export function createPageContext(
  config: Config,
  request: PageRequest,
  scriptBundles: ReadonlySet<string> = new Set(),
): PageContext {
  const wanted = stringParam(request.query.locale);
  const locale = negotiateLocale(
    {
      query: wanted,
      userLocale: request.userLocale,
      uiLocales: uiLocalesOf(request.query.return_to),
      acceptLanguage: request.acceptLanguage,
    },
    config.i18n,
  );
  const query = Object.entries(request.query).flatMap(([name, value]): [string, string][] =>
    name !== 'locale' && typeof value === 'string' ? [[name, value]] : [],
  );
  return {
    config,
    locale,
    text: catalogueFor(locale),
    chosenLocale: matchOfferedLocale(wanted, config.i18n.locales),
    here: request.reloadable === false || config.i18n.locales.length < 2 ? null : { path: request.path, query },
    termLinks: termLinks(config, locale),
    themeHref: themeHref(config.branding.primaryColor),
    scriptBundles,
  };
}

/** A link to another built-in page, keeping an explicit language choice. */
export function pageHref(
  context: PageContext,
  path: string,
  params: Readonly<Record<string, string | null | undefined>> = {},
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== null && value !== undefined) query.set(name, value);
  if (context.chosenLocale) query.set('locale', context.chosenLocale);
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** The content of a term in a locale: the locale, its language, the default locale, else the first written. */
export function termContent(
  content: Readonly<Partial<Record<string, TermContent>>>,
  locale: string,
  defaultLocale: string,
): TermContent | null {
  const language = locale.split('-')[0];
  return content[locale] ?? content[language] ?? content[defaultLocale] ?? Object.values(content)[0] ?? null;
}

function termLinks(config: Config, locale: string): TermLink[] {
  return config.terms.flatMap((term) => {
    const content = termContent(term.content, locale, config.i18n.defaultLocale);
    return content?.type === 'link' ? [{ title: content.title, url: content.content }] : [];
  });
}

/** Versioned by the colour, so a browser never keeps the stylesheet of another one. */
function themeHref(primaryColor: string | null): string | null {
  if (primaryColor === null || !accentPalette(primaryColor)) return null;
  const version = createHash('sha256').update(primaryColor).digest('hex').slice(0, 12);
  return `/ui/theme.css?v=${version}`;
}

export function stringParam(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
