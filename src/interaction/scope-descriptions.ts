/** What each scope lets the application do, in the words the consent page shows (OIDC Core §5.4, §11). */
export const scopeDescriptions: Readonly<Record<string, string>> = {
  openid: 'Sign you in with your account',
  profile: 'See your basic profile',
  email: 'See your e-mail address',
  offline_access: 'Stay signed in when you are not using it',
  groups: 'See which groups you are in',
};

export function describeScope(scope: string): string {
  return scopeDescriptions[scope] ?? scope;
}
