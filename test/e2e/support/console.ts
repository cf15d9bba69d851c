import type { Browser, BrowserContext } from 'playwright-core';

export const consolePassword = 'correct horse battery staple';

/**
 * A browser context signed in as `email` (the JSON sign-in, whose cookie
 * the context keeps), at 360 × 740 unless told otherwise, in `locale`.
 */
export async function signedInContext(
  browser: Browser,
  idpUrl: string,
  email: string,
  options: { width?: number; locale?: 'en' | 'de'; password?: string } = {},
): Promise<BrowserContext> {
  const locale = options.locale ?? 'en';
  const context = await browser.newContext({
    viewport: { width: options.width ?? 360, height: 740 },
    locale,
    extraHTTPHeaders: { 'accept-language': locale },
  });
  const login = await context.request.post(`${idpUrl}/api/auth/login`, {
    data: { email, password: options.password ?? consolePassword },
    headers: { origin: idpUrl },
  });
  if (login.status() !== 200) throw new Error(`sign-in of ${email} answered ${login.status()}`);
  return context;
}
