import type { PageContext } from './page-context.js';

/**
 * What every page script reads from the data block: the locale (for
 * number formatting), the error sentences by code and the common form
 * strings. A page adds its own part beside them.
 */
export function scriptStrings(context: PageContext) {
  return {
    locale: context.locale,
    errors: context.text.errors,
    common: context.text.pages.common,
    passwordMinLength: context.config.auth.passwordMinLength,
  };
}

/** An error code as a sentence in the page's language; an unknown code gets the fallback (the code itself stays in data-code). */
export function errorSentence(context: PageContext, code: string): string {
  const sentences: Readonly<Record<string, string>> = context.text.errors;
  return Object.hasOwn(sentences, code) ? sentences[code] : sentences.fallback;
}
