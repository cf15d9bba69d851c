import { parseColour, type Rgb } from '../../config/index.js';

/**
 * branding.primary_color as the pages' accent (docs/ui.md, "Look", "Branding"): the colour
 * itself fills primary buttons; their label is white or near-black,
 * whichever reads better (one of them always reaches WCAG AA's 4.5:1); links and focus rings, which
 * sit on the card, get the accent darkened (light theme) or lightened (dark
 * theme) just enough to reach 4.5:1 against it; the hover shade moves away
 * from the label's colour, so it only gains contrast. validate refuses a
 * colour the pages cannot read; a Config built otherwise gives null here,
 * and the built-in default stays.
 */
export interface AccentPalette {
  accent: string;
  accentHover: string;
  onAccent: string;
  /** Links and focus rings on the light card. */
  accentText: string;
  /** The same on the dark card. */
  accentTextDark: string;
}

/** The card backgrounds of src/web/public/ui/app.css (--card), light and dark. */
export const cardLight: Rgb = [255, 255, 255];
export const cardDark: Rgb = [28, 31, 38];
const white: Rgb = [255, 255, 255];
const nearBlack: Rgb = [17, 20, 24];
const black: Rgb = [0, 0, 0];

/** WCAG 2.x: normal text needs 4.5:1. */
export const minimumTextContrast = 4.5;

/** WCAG 2.x relative luminance. */
function luminance([r, g, b]: Rgb): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}

function mix(from: Rgb, to: Rgb, amount: number): Rgb {
  return from.map((c, i) => Math.round(c + (to[i] - c) * amount)) as unknown as Rgb;
}

export function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** The accent moved toward `target` in 5% steps until it reads on `background`; the target itself (black or white) always does. */
function readableOn(accent: Rgb, background: Rgb, target: Rgb): Rgb {
  for (let step = 0; step < 20; step += 1) {
    const candidate = mix(accent, target, step / 20);
    if (contrast(candidate, background) >= minimumTextContrast) return candidate;
  }
  return target;
}

export function accentPalette(colour: string | null): AccentPalette | null {
  const accent = colour === null ? null : parseColour(colour);
  if (!accent) return null;
  const onAccent = contrast(white, accent) >= contrast(nearBlack, accent) ? white : nearBlack;
  // Away from the label's colour: the hover shade only gains contrast.
  const hover = mix(accent, onAccent === white ? black : white, 0.15);
  return {
    accent: toHex(accent),
    accentHover: toHex(hover),
    onAccent: toHex(onAccent),
    accentText: toHex(readableOn(accent, cardLight, black)),
    accentTextDark: toHex(readableOn(accent, cardDark, white)),
  };
}
