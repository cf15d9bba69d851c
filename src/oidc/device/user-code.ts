import { randomInt } from 'node:crypto';

/**
 * RFC 8628 §6.1: user codes of 8 letters from 20 consonants without vowels
 * (no words can be spelled, nothing reads like a digit), shown as
 * `XXXX-XXXX`: 20^8, about 2^34.6 codes, against the few a device holds for
 * 10 minutes and a rate limit on wrong codes.
 */
export const userCodeAlphabet = 'BCDFGHJKLMNPQRSTVWXZ';
const userCodeLength = 8;
const storedUserCode = new RegExp(`^[${userCodeAlphabet}]{${userCodeLength}}$`);

/** A new user code, stored and compared as 8 upper-case letters without the dash. */
export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < userCodeLength; i++) code += userCodeAlphabet[randomInt(userCodeAlphabet.length)];
  return code;
}

/** `BCDF-GHJK`: how the device and the page show it. */
export function displayUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * What the user typed as a stored code: case, dashes and spaces ignored
 * (RFC 8628 §6.1); null when it cannot be one (then it is not looked up).
 */
export function normalizeUserCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  return storedUserCode.test(code) ? code : null;
}
