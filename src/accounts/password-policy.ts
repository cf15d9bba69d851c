import { passwordTooShort } from './account-errors.js';

/**
 * auth.password_min_length, counted in characters as a person counts them
 * (code points: an emoji is one, not two UTF-16 units). Throws 400
 * PASSWORD_TOO_SHORT.
 */
export function checkPasswordLength(password: string, minLength: number): void {
  if ([...password].length < minLength) throw passwordTooShort(minLength);
}
