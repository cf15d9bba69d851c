import { logoHref, parseColour } from '../branding-values.js';
import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

/** The branding values the pages can use (../branding-values.ts): a colour they understand, a logo they may load. */
export const checkBranding: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  const { primary_color: colour, logo_url: logo } = config.branding;
  if (colour !== null && parseColour(colour) === null) {
    problems.push(
      error(['branding', 'primary_color'], 'must be a colour written #rgb, #rrggbb or rgb(r, g, b), such as #1f6feb'),
    );
  }
  if (logo !== null && logoHref(logo) === null) {
    problems.push(
      error(['branding', 'logo_url'], 'must be an http(s) URL, a path on this server (/logo.svg) or a data:image/ URI'),
    );
  }
  return problems;
};
