import { didYouMean } from '../did-you-mean.js';
import { error, type ConfigRule, type RuleProblem } from './config-rule.js';

/** C0 and C1 controls and DEL: a name is one line of visible text. */
const controlCharacter = /[\u0000-\u001F\u007F-\u009F]/;
/** A UTF-16 surrogate without its partner (a YAML "\ud800" escape): not text at all. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const nameFields = ['name', 'given_name', 'family_name'] as const;

/**
 * The profile a config user declares (docs/http-api.md, "Your own account"): names are one line of
 * visible text, and the locale is one the service offers (i18n.locales,
 * spelled as there), since pages, e-mails and the locale claim use it as is.
 */
export const checkUserProfiles: ConfigRule = (config) => {
  const problems: RuleProblem[] = [];
  const offered = config.i18n.locales;
  config.users.forEach((user, index) => {
    for (const field of nameFields) {
      const value = user[field];
      if (typeof value !== 'string') continue;
      if (controlCharacter.test(value) || loneSurrogate.test(value))
        problems.push(error(['users', index, field], 'must not contain control characters (line breaks, tabs…)'));
      else if (value.trim() === '') problems.push(error(['users', index, field], 'must not be blank'));
    }
    if (typeof user.locale === 'string' && !offered.includes(user.locale)) {
      problems.push(
        error(
          ['users', index, 'locale'],
          `is not one of i18n.locales (${offered.join(', ')})${didYouMean(user.locale, offered)}`,
        ),
      );
    }
  });
  return problems;
};
