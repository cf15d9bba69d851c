import { logoHref } from '../../config/index.js';
import { formatMessage } from '../../i18n/index.js';
import { html, jsonBlock, type SafeHtml } from './html.js';
import type { PageContext } from './page-context.js';
import { safeHref } from './safe-href.js';

export interface PageParts {
  /** The task of the page, for the title "{task} · {brand}". */
  task: string;
  /** The page's content: inside the card, or the whole of <main> with `layout: 'wide'` (or the admin console's `console`). */
  body: SafeHtml;
  layout?: 'card' | 'wide' | 'console';
  /** The page's ES module under /ui/ (e.g. 'login.js'); none for a page without behaviour. */
  script?: string;
  /** Strings and settings the script reads from the data block (#page-data). */
  data?: unknown;
  /** Extra head elements (a meta refresh, a referrer policy). */
  head?: SafeHtml;
}

/**
 * The frame of every page idp renders (docs/ui.md, "Look", "Branding"): `<html lang>` of the
 * request's locale, the title "{task} · {brand}", the stylesheet and the
 * generated accent stylesheet, the brand (logo or name) above the card,
 * and a footer with the language switcher and the link-type terms. Scripts
 * are files (script-src 'self'); what they need comes in a JSON data block,
 * which is not executed and so needs no inline-script allowance.
 */
export function renderPage(context: PageContext, page: PageParts): string {
  const { config, text } = context;
  const brandName = config.branding.name;
  const title = formatMessage(text.pages.titleFormat, { task: page.task, brand: brandName });
  const logo = config.branding.logoUrl === null ? null : logoHref(config.branding.logoUrl);
  const brand =
    logo === null
      ? html`<span class="brand-name">${brandName}</span>`
      : html`<img class="brand-logo" src="${logo}" alt="${brandName}">`;
  const layout = page.layout ?? 'card';
  const document = html`<!doctype html>
<html lang="${context.locale}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">${page.head ?? ''}
  <title>${title}</title>
  <link rel="icon" type="image/svg+xml" href="/favicon.ico">
  <link rel="stylesheet" href="/ui/app.css">${
    context.themeHref &&
    html`
  <link rel="stylesheet" href="${context.themeHref}">`
  }
${scripts(context, page.script)}
</head>
<body class="layout-${layout}">
  <header class="brand">${brand}</header>
  <main id="main" class="${layout === 'card' ? 'card' : 'wide'}">
${page.body}
  </main>
${renderFooter(context)}${
    page.data !== undefined
      ? html`
  ${jsonBlock('page-data', page.data)}`
      : ''
  }
</body>
</html>
`;
  return document.value;
}

/** The frame's module and the page's, or, where the build bundled the page's script (frame included), its bundle alone. */
function scripts(context: PageContext, script: string | undefined): SafeHtml {
  if (script && context.scriptBundles.has(script))
    return html`  <script type="module" src="/ui/bundle/${script}"></script>`;
  return html`  <script type="module" src="/ui/frame.js"></script>${
    script &&
    html`
  <script type="module" src="/ui/${script}"></script>`
  }`;
}

function renderFooter(context: PageContext): SafeHtml {
  const { text } = context;
  const switcher = context.here && renderLanguageSwitcher(context, context.here);
  const terms = context.termLinks.flatMap((term) => {
    const href = safeHref(term.url);
    return href === null ? [] : [html`<li><a href="${href}">${term.title}</a></li>`];
  });
  if (!switcher && terms.length === 0) return html``;
  return html`  <footer class="footer">${switcher}${
    terms.length > 0 &&
    html`
    <nav aria-label="${text.pages.legalLinks}"><ul class="footer-links">${terms}</ul></nav>`
  }
  </footer>
`;
}

/**
 * A GET form to this page itself that carries its query along, so the
 * choice keeps the address; /ui/frame.js submits it on change and hides the
 * button, which is there for browsers without scripts.
 */
function renderLanguageSwitcher(context: PageContext, here: { path: string; query: [string, string][] }): SafeHtml {
  const { text, config } = context;
  const options = config.i18n.locales.map(
    (locale) =>
      html`<option value="${locale}" lang="${locale}"${locale === context.locale ? html` selected` : ''}>${languageName(locale)}</option>`,
  );
  const hidden = here.query.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  return html`
    <form class="language" method="get" action="${here.path}">${hidden}
      <label for="language-select">${text.pages.languageLabel}</label>
      <select id="language-select" name="locale" data-autosubmit>${options}</select>
      <button type="submit" class="language-apply secondary">${text.pages.languageApply}</button>
    </form>`;
}

/** A language named in itself ("Deutsch", "English"), as people look for their own; a tag Intl cannot read as itself. */
export function languageName(locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale);
    return name ? name.charAt(0).toLocaleUpperCase(locale) + name.slice(1) : locale;
  } catch {
    return locale;
  }
}
