import type { BrandingConfig } from '../config/types.js';
import { escapeHtml } from './escape-html.js';

/** The accent when branding.primary_color is unset or not a colour a mail can carry. */
const defaultAccent = '#1f6feb';

/**
 * A CSS colour safe to put in a style attribute: hex, a colour name, or
 * rgb()/hsl() with numbers only. Anything else (a `;` or `url(` that
 * would smuggle in more CSS) falls back to the default.
 */
function safeColor(color: string | null): string {
  if (color === null) return defaultAccent;
  const value = color.trim();
  const hex = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value);
  const name = /^[a-z]{3,30}$/i.test(value);
  const fn = /^(?:rgb|hsl)a?\([0-9.,%\s]{1,60}\)$/i.test(value);
  return hex || name || fn ? value : defaultAccent;
}

/** Black or white, whichever reads better on a hex background (WCAG relative luminance); white otherwise. */
function textOn(background: string): string {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(background);
  if (!match) return '#ffffff';
  const digits =
    match[1].length === 3
      ? Array.from(match[1])
          .map((d) => d + d)
          .join('')
      : match[1];
  const [r, g, b] = [0, 2, 4].map((i) => {
    const channel = parseInt(digits.slice(i, i + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // The luminance where black and white text have the same contrast ratio.
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

export interface MailBranding {
  name: string;
  accent: string;
  accentText: string;
  /** The logo as an <img>, or the name as text: HTML, already escaped. */
  headerHtml: string;
}

/** branding as a mail shows it: the logo only from an absolute http(s) URL (a mail has no base to resolve against). */
export function mailBranding(branding: BrandingConfig): MailBranding {
  const accent = safeColor(branding.primaryColor);
  const name = escapeHtml(branding.name);
  const logo = absoluteHttpUrl(branding.logoUrl);
  const headerHtml = logo
    ? `<img src="${escapeHtml(logo)}" alt="${name}" height="40" style="display:block;height:40px;width:auto;border:0;">`
    : `<span style="font-size:20px;font-weight:600;color:${accent};">${name}</span>`;
  return { name: branding.name, accent, accentText: textOn(accent), headerHtml };
}

function absoluteHttpUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
