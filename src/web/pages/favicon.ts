import { accentPalette } from './accent-palette.js';

/** The built-in accent of /ui/app.css, for a server without branding.primary_color. */
const builtinAccent = { accent: '#2557d6', onAccent: '#ffffff' };

/**
 * GET /favicon.ico: browsers ask for it on every page, so the built-in UI
 * answers with a small key in the accent colour (branding.primary_color
 * when it is a colour) instead of a 404. An SVG: every current browser
 * takes one as a favicon whatever the path says.
 */
export function renderFavicon(primaryColor: string | null): string {
  const { accent, onAccent } = accentPalette(primaryColor) ?? builtinAccent;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${accent}"/><circle cx="12" cy="16" r="5" fill="none" stroke="${onAccent}" stroke-width="3"/><path d="M17 16h9v4m-4-4v3" fill="none" stroke="${onAccent}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>
`;
}
