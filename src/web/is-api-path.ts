const apiPrefixes = ['/api/', '/oauth2/', '/.well-known/'];
const apiPaths = new Set(['/api', '/oauth2', '/.well-known', '/openapi.json']);

/** Paths the server answers itself in every frontend mode: never served from disk nor forwarded. */
export function isApiPath(pathname: string): boolean {
  return apiPaths.has(pathname) || apiPrefixes.some((prefix) => pathname.startsWith(prefix));
}
