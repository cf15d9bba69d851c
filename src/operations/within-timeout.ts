/**
 * `work`, or a rejection after `timeoutMs`: a probe or a scrape facing a
 * hung database needs an answer now, not after the pool's 60 s acquire
 * timeout. The work itself is not cancelled; its late result is dropped.
 */
export function withinTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${String(timeoutMs)} ms`)), timeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
