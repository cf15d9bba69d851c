import { describe, expect, it } from 'vitest';
import { catalogueFor, formatMessage, matchOfferedLocale, negotiateLocale } from '../../src/i18n/index.js';
import { de } from '../../src/i18n/catalogues/de/index.js';
import { en } from '../../src/i18n/catalogues/en/index.js';

/** Every string of a catalogue with its path (pages.login.submit → 'Sign in'). */
function strings(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
    strings(child, path ? `${path}.${key}` : key),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{([a-zA-Z_]+)\}/g)].map((m) => m[1]).sort();

describe('the catalogues', () => {
  it('German has every English string, none empty, with the same placeholders', () => {
    const german = new Map(strings(de));
    for (const [path, english] of strings(en)) {
      const translated = german.get(path);
      expect(translated, path).toBeTruthy();
      expect(placeholders(translated!), path).toEqual(placeholders(english));
    }
    expect(german.size).toBe(strings(en).length);
  });

  it('has a sentence for every error code the account API answers with, so no page falls back to the generic one', () => {
    const accountApiCodes = [
      'INVALID_CREDENTIALS',
      'TOO_MANY_REQUESTS',
      'EMAIL_NOT_VERIFIED',
      'REGISTRATION_DISABLED',
      'EMAIL_NOT_ALLOWED',
      'EMAIL_ALREADY_EXISTS',
      'TERMS_NOT_ACCEPTED',
      'PASSWORD_TOO_SHORT',
      'INVALID_TOKEN',
      'USER_NOT_EDITABLE',
      'ACCOUNT_DELETION_DISABLED',
      'EMAIL_DISABLED',
      'INVALID_CODE',
      'TOTP_ALREADY_REGISTERED',
      'SECOND_FACTOR_REQUIRED',
      'PASSKEY_NOT_FOUND',
      'INVALID_PASSKEY',
      'CONSENT_NOT_FOUND',
      'TERMS_NOT_FOUND',
      'TERMS_VERSION_MISMATCH',
      'ACCOUNT_NOT_REMEMBERED',
      'UPSTREAM_ERROR',
      'LINK_REQUIRED',
      'CONNECTION_NOT_FOUND',
      'LAST_SIGN_IN_METHOD',
    ];
    for (const code of accountApiCodes) expect(en.errors, code).toHaveProperty(code);
  });

  it.each([
    ['de', 'Anmelden'],
    ['de-AT', 'Anmelden'],
    ['en-GB', 'Sign in'],
    ['fr', 'Sign in'],
  ])('catalogueFor(%s) speaks the nearest shipped language', (locale, signIn) => {
    expect(catalogueFor(locale).pages.login.submit).toBe(signIn);
  });

  it('formatMessage fills known placeholders and leaves others', () => {
    expect(formatMessage('Sign in to {client} as {who}', { client: 'Notes' })).toBe('Sign in to Notes as {who}');
  });
});

describe('negotiateLocale', () => {
  const i18n = { defaultLocale: 'en', locales: ['en', 'de-CH', 'pt-BR'] };

  it.each([
    [{ query: 'DE-ch' }, 'de-CH'],
    [{ query: 'de' }, 'de-CH'],
    [{ query: 'xx', userLocale: 'pt' }, 'pt-BR'],
    [{ acceptLanguage: 'fr-FR, de;q=0.5, pt;q=0.7' }, 'pt-BR'],
    [{ acceptLanguage: 'pt;q=0, de;q=0.1' }, 'de-CH'],
    [{ acceptLanguage: '*, fr' }, 'en'],
    [{ acceptLanguage: 'de;q=abc' }, 'en'],
    [{ query: '', userLocale: null, acceptLanguage: null }, 'en'],
    [{ uiLocales: 'fr pt-PT', acceptLanguage: 'de' }, 'pt-BR'],
    [{ userLocale: 'de', uiLocales: 'pt', acceptLanguage: 'en' }, 'de-CH'],
    [{ uiLocales: 'fr  ', acceptLanguage: 'de' }, 'de-CH'],
  ])('%j → %s', (hints, expected) => {
    expect(negotiateLocale(hints, i18n)).toBe(expected);
  });

  it('matchOfferedLocale tells a choice from no choice', () => {
    expect(matchOfferedLocale('de-AT', ['en', 'de'])).toBe('de');
    expect(matchOfferedLocale(' * ', ['en'])).toBeNull();
    expect(matchOfferedLocale('fr', ['en', 'de'])).toBeNull();
  });
});
