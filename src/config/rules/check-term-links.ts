import { error, type ConfigRule, type RuleProblem } from './config-rule.js';
import { isHttpUrl } from './is-http-url.js';

/**
 * A link term's content is where the page's link goes: only an absolute
 * http(s) URL, never `javascript:` or a relative path that would resolve
 * against idp's own pages.
 */
export const checkTermLinks: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  config.terms.forEach((term, index) => {
    for (const [locale, content] of Object.entries(term.content)) {
      if (content.type !== 'link' || isHttpUrl(content.content)) continue;
      problems.push(
        error(
          ['terms', index, 'content', locale, 'content'],
          'a link term must be an absolute http(s) URL (such as https://example.com/terms)',
        ),
      );
    }
  });
  return problems;
};
