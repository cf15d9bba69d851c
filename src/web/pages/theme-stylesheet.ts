import { accentPalette } from './accent-palette.js';

/**
 * GET /ui/theme.css: branding.primary_color as the custom properties
 * /ui/app.css reads (--accent and what derives from it). A page links it
 * only when the colour is usable (page-context.ts), so a stylesheet with
 * no rules (an unusable colour) is never loaded.
 */
export function renderThemeStylesheet(primaryColor: string | null): string {
  const palette = accentPalette(primaryColor);
  if (!palette)
    return '/* branding.primary_color is not set or not a colour (#rgb, #rrggbb, rgb()): the built-in accent applies. */\n';
  return `:root {
  --accent: ${palette.accent};
  --accent-hover: ${palette.accentHover};
  --on-accent: ${palette.onAccent};
  --accent-text: ${palette.accentText};
}

@media (prefers-color-scheme: dark) {
  :root { --accent-text: ${palette.accentTextDark}; }
}
`;
}
