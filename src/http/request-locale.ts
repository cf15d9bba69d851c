import type { Request } from '@hapi/hapi';
import type { I18nConfig } from '../config/types.js';
import { negotiateLocale } from '../i18n/index.js';

/**
 * The locale a request asks for (src/i18n negotiateLocale): `?locale=`
 * (the language a page shows), then Accept-Language, then
 * i18n.default_locale. The mails a request causes are written in it.
 */
export function requestLocale(request: Request, i18n: I18nConfig): string {
  const query = (request.query as Record<string, unknown>).locale;
  const acceptLanguage: unknown = request.headers['accept-language'];
  return negotiateLocale(
    {
      query: typeof query === 'string' ? query : null,
      acceptLanguage: typeof acceptLanguage === 'string' ? acceptLanguage : null,
    },
    i18n,
  );
}
