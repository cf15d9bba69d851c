import { escapeHtml } from '../html-variables.js';
import { SafeHtml } from './html.js';
import { safeHref } from './safe-href.js';

/** Inline formatting, paragraphs, lists and links: what a signup notice needs, nothing that runs or restyles the page. */
const allowedTags = new Set(['a', 'b', 'strong', 'i', 'em', 'u', 'small', 'code', 'br', 'p', 'ul', 'ol', 'li']);
const voidTags = new Set(['br']);

const tagPattern = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s[^<>]*)?)\/?>/g;
const hrefPattern = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;

/** Text as it stands: `<` and `>` escaped, `&` too unless it starts a character reference the author wrote. */
function escapeText(text: string): string {
  return text
    .replace(/&(?!(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * registration.signup_notice is "HTML-capable" (docs/configuration.md, registration): it comes
 * from the operator's config, yet it is shown on a page that takes a
 * password, so it passes an allow-list. Allowed tags are written back bare
 * (no attributes but a link's href, which must be http(s), mailto: or a
 * path); any other tag is dropped and its text kept; every tag opened is
 * closed within the notice, so a stray <b> or <a> cannot spill into the
 * rest of the page.
 */
export function sanitizeNotice(source: string): SafeHtml {
  const out: string[] = [];
  const open: string[] = [];
  let last = 0;
  for (const match of source.matchAll(tagPattern)) {
    out.push(escapeText(source.slice(last, match.index)));
    last = match.index + match[0].length;
    const name = match[2].toLowerCase();
    if (!allowedTags.has(name)) continue;
    if (match[1] === '/') {
      const at = open.lastIndexOf(name);
      while (at !== -1 && open.length > at) out.push(`</${open.pop()}>`);
      continue;
    }
    if (voidTags.has(name)) {
      out.push(`<${name}>`);
      continue;
    }
    out.push(name === 'a' ? openLink(match[3]) : `<${name}>`);
    open.push(name);
  }
  out.push(escapeText(source.slice(last)));
  while (open.length > 0) out.push(`</${open.pop()}>`);
  return new SafeHtml(out.join(''));
}

function openLink(attributes: string): string {
  // One of the three alternatives matched: the other groups are undefined.
  const found: (string | undefined)[] | null = hrefPattern.exec(attributes);
  const raw = found ? (found[1] ?? found[2] ?? found[3] ?? '').replace(/&amp;/g, '&') : null;
  const href = raw === null ? null : safeHref(raw, { allowMailto: true });
  return href === null ? '<a>' : `<a href="${escapeHtml(href)}">`;
}
