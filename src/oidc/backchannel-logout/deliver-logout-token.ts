/**
 * Back-Channel Logout §2.5: POSTs `logout_token=…` as a form to the
 * client's back-channel logout URI. A 2xx is success; any other status, a
 * redirect (never followed: the token goes only where it was registered), a
 * network error or no answer within `timeoutMs` throws, so the job is retried.
 * `signal` is the job's: a worker that stops waiting stops the request too.
 */
export async function deliverLogoutToken(
  uri: string,
  logoutToken: string,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: logoutToken }).toString(),
      redirect: 'manual',
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
    });
    // The body says nothing the OP needs; reading it frees the connection.
    await response.arrayBuffer();
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    throw new Error(timedOut ? `no answer within ${options.timeoutMs} ms` : (error as Error).message, { cause: error });
  }
  if (response.status < 200 || response.status > 299) throw new Error(`answered HTTP ${response.status}`);
}
