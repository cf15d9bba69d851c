/**
 * What `branding.primary_color` and `branding.logo_url` may hold, decided
 * once: validate refuses anything else (./rules/check-branding.ts) and the
 * pages (src/web/pages) read the values with the same functions.
 */
export type Rgb = readonly [number, number, number];

/** `#rgb`, `#rrggbb` or `rgb(r, g, b)` (commas or spaces), as red, green and blue 0..255; null otherwise. */
export function parseColour(text: string): Rgb | null {
  const value = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(value)?.[1];
  if (hex) {
    const digits =
      hex.length === 3 ? Array.from(hex).map((d) => d + d) : [hex.slice(0, 2), hex.slice(2, 4), hex.slice(4, 6)];
    return digits.map((pair) => parseInt(pair, 16)) as unknown as Rgb;
  }
  const functional = /^rgb\(\s*(\d{1,3})\s*[,\s]\s*(\d{1,3})\s*[,\s]\s*(\d{1,3})\s*\)$/.exec(value);
  if (!functional) return null;
  const channels = [functional[1], functional[2], functional[3]].map(Number);
  return channels.every((c) => c <= 255) ? (channels as unknown as Rgb) : null;
}

/** The logo as an image source: an http(s) URL, a path on this server, or a data:image/ URI; null for anything else (javascript:, //host). */
export function logoHref(url: string): string | null {
  const value = url.trim();
  if (value.startsWith('/')) return value.startsWith('//') || value.startsWith('/\\') ? null : value;
  if (/^data:image\/[a-z0-9.+-]+[;,]/i.test(value)) return value;
  try {
    const parsed = new URL(value);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '' ? parsed.href : null;
  } catch {
    return null;
  }
}
