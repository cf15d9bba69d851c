import { describe, expect, it } from 'vitest';
import { logoHref, parseColour } from '../../../src/config/index.js';
import {
  accentPalette,
  cardDark,
  cardLight,
  contrast,
  minimumTextContrast,
} from '../../../src/web/pages/accent-palette.js';
import { renderThemeStylesheet } from '../../../src/web/pages/theme-stylesheet.js';

const rgb = (hex: string) => parseColour(hex)!;

describe('parseColour', () => {
  it.each([
    ['#1f6feb', [31, 111, 235]],
    ['#ABC', [170, 187, 204]],
    [' rgb(10, 20, 30) ', [10, 20, 30]],
    ['rgb(10 20 30)', [10, 20, 30]],
    ['rgb(256, 0, 0)', null],
    ['#12345', null],
    ['red', null],
    ['var(--x)', null],
    ['#123456; } body { display: none', null],
  ])('%s → %j', (text, expected) => {
    expect(parseColour(text)).toEqual(expected);
  });
});

describe('logoHref', () => {
  it.each([
    ['https://cdn.example/logo.svg', 'https://cdn.example/logo.svg'],
    [' /brand/logo.png ', '/brand/logo.png'],
    ['data:image/png;base64,AAAA', 'data:image/png;base64,AAAA'],
    ['data:text/html,<script>', null],
    ['//evil.example/logo.svg', null],
    ['/\\evil.example', null],
    ['javascript:alert(1)', null],
    ['https://', null],
    ['logo.svg', null],
  ])('%s → %s', (url, expected) => {
    expect(logoHref(url)).toBe(expected);
  });
});

describe('accentPalette', () => {
  it('keeps the colour for buttons and labels it white or near-black, whichever reads', () => {
    expect(accentPalette('#1f6feb')).toMatchObject({ accent: '#1f6feb', onAccent: '#ffffff' });
    expect(accentPalette('#ffd400')).toMatchObject({ accent: '#ffd400', onAccent: '#111418' });
  });

  it.each(['#1f6feb', '#ffd400', '#00ff00', '#111111', '#ffffff', '#7f7f7f', 'rgb(200, 30, 90)'])(
    '%s: every derived text colour reaches WCAG AA on its background',
    (colour) => {
      const palette = accentPalette(colour)!;
      expect(contrast(rgb(palette.onAccent), rgb(palette.accent))).toBeGreaterThanOrEqual(minimumTextContrast);
      expect(contrast(rgb(palette.onAccent), rgb(palette.accentHover))).toBeGreaterThanOrEqual(minimumTextContrast);
      expect(contrast(rgb(palette.accentText), cardLight)).toBeGreaterThanOrEqual(minimumTextContrast);
      expect(contrast(rgb(palette.accentTextDark), cardDark)).toBeGreaterThanOrEqual(minimumTextContrast);
    },
  );

  it('leaves a readable accent as it is for links', () => {
    expect(accentPalette('#1a4fc4')!.accentText).toBe('#1a4fc4');
  });

  it('is null (the default stays) without a usable colour', () => {
    expect(accentPalette(null)).toBeNull();
    expect(accentPalette('blue')).toBeNull();
  });
});

describe('the theme stylesheet', () => {
  it("sets the accent properties, with the dark theme's link colour", () => {
    const css = renderThemeStylesheet('#0a7');
    expect(css).toContain('--accent: #00aa77;');
    expect(css).toMatch(/@media \(prefers-color-scheme: dark\) \{\n {2}:root \{ --accent-text: #[0-9a-f]{6}; \}/);
  });

  it('is a comment without a usable colour', () => {
    expect(renderThemeStylesheet('nope')).toMatch(/^\/\*.*\*\/\n$/);
  });
});
